/**
 * Island "admin-console" on /admin: the create/edit modal and the row actions.
 *
 *   <div data-island="admin-console" data-props='{"roles": [...], "modules": [...],
 *        "barangays": [...], "roleDefaults": {"1": [1, 2, 3, 4, 5, 6], ...}}'></div>
 */
import { AdminConsole } from "../components/admin/AdminConsole";
import type { AdminProps } from "../components/admin/types";
import { mountIsland } from "../lib/mount";

mountIsland("admin-console", AdminConsole, (props) => props as unknown as AdminProps);
