/**
 * Island "machines-table": the Machines tab's table with its Add/Edit modals.
 *
 *   <div data-island="machines-table" data-props='{"q": "", "page": 1, "perPage": 10}'>
 *     (the server-rendered table: the no-JavaScript fallback)
 *   </div>
 *
 * The toolbar's Add Machine button (#machines-add) opens the add modal instead of following its
 * link. Server dialogs opened by ?add=1 / ?edit=ID (no-JavaScript path) are removed.
 */
import { dropNoScriptDialogs, MachinesTable, tableProps } from "../components/machines/MachinesTable";
import { mountIsland } from "../lib/mount";

dropNoScriptDialogs();
mountIsland("machines-table", MachinesTable, tableProps);
