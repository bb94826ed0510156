/**
 * A translated text with elements inside it (a name in bold, a link): `rich(t("Account created for
 * {username}."), { username: <strong>{name}</strong> })` splits the text at its `{name}`
 * placeholders and puts the nodes there, so translators see and move whole sentences.
 */
import { createElement, Fragment, type ReactNode } from "react";

export function rich(text: string, nodes: Record<string, ReactNode>): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const name = match[1];
    if (!Object.prototype.hasOwnProperty.call(nodes, name)) continue;
    const start = match.index ?? 0;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(nodes[name]);
    last = start + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return createElement(Fragment, null, ...parts);
}
