/**
 * Island "machines-selector" (no React): replaces the server's select-and-find form with a
 * type-ahead over every machine; choosing one reloads the tab for that machine (?machine=ID),
 * so the server renders its chemical additives or waste containers.
 *
 *   <div data-island="machines-selector" data-props='{"machine": {"id": 1, "name": "..."}, "tab": "...", "q": ""}'>
 */
import { createSelector } from "../components/machines/selector";
import { onIsland } from "../lib/island";

interface Props {
  machine: { id: number; name: string } | null;
  tab: string;
  q: string;
}

onIsland<Props>("machines-selector", (el, props) => {
  createSelector(el, {
    current: props.machine,
    onChoose: (machine) => {
      const params = new URLSearchParams({ tab: props.tab, machine: String(machine.machine_id) });
      if (props.q) params.set("q", props.q);
      window.location.assign(`${window.location.pathname}?${params.toString()}`);
    },
  });
});
