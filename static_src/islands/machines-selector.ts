/**
 * Island "machines-selector" (no React): replaces the server's select-and-find form with a
 * type-ahead over every machine; choosing one reloads the tab for that machine (?machine=ID),
 * so the server renders its chemical additives or waste containers.
 *
 *   <div data-island="machines-selector" data-props='{"machine": {"id": 1, "name": "..."}, "tab": "...", "q": ""}'>
 */
import { machineTabSelector, type SelectorIslandProps } from "../components/machines/selector";
import { onIsland } from "../lib/island";

onIsland<SelectorIslandProps>("machines-selector", machineTabSelector);
