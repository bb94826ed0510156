// Plays the spec's client (section 7) from another origin: every call is JSON with
// credentials: 'include', so the browser sends our session cookie along.
"use strict";

const params = new URLSearchParams(location.search);
// The client's build knows our address; this stand-in is told it once and remembers it.
const API = params.get("api") || localStorage.getItem("api");
const results = [];

async function call(step, method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let status = 0;
  let payload = null;
  try {
    const res = await fetch(API + path, {
      method,
      headers,
      credentials: "include",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    status = res.status;
    const text = await res.text();
    try {
      payload = JSON.parse(text);
    } catch {
      payload = { raw: text }; // the spec's client wraps a non-JSON body this way
    }
  } catch (err) {
    payload = { networkError: String(err) }; // CORS refused, or the server is gone
  }
  results.push({ step, status, payload });
  const row = document.createElement("tr");
  for (const cell of [step, String(status), (payload && (payload.message || payload.raw)) || ""]) {
    const td = document.createElement("td");
    td.textContent = cell;
    row.append(td);
  }
  document.getElementById("steps").append(row);
  return payload || {};
}

function finish() {
  document.getElementById("results").textContent = JSON.stringify(results);
  document.body.dataset.done = "1";
}

async function verifyEmail() {
  // The link of our verification e-mail when SIBOL_CLIENT_URL names this origin.
  document.querySelector("h1").textContent = `Verifying ${params.get("email")}`;
  await call("verify-email", "GET", `/api/auth/verify-email/${encodeURIComponent(params.get("token"))}`);
  finish();
}

async function run() {
  localStorage.setItem("api", API);
  const email = params.get("email");
  const username = params.get("username");
  const password = params.get("password");
  const barangays = await call("barangays", "GET", "/api/auth/barangays");
  const areaId = barangays.barangays && barangays.barangays.length ? barangays.barangays[0].id : 0;
  await call("forgot-password", "POST", "/api/auth/forgot-password", { email });
  await call("signup", "POST", "/api/auth/signup", {
    firstName: "Rosa",
    lastName: "Lim",
    email: "rosa.lim@example.test",
    areaId,
    role: 4,
    roleId: 4,
    username: "rosa.lim",
    isSSO: false,
  });
  await call("resend-verification", "POST", "/api/auth/resend-verification", { email: "rosa.lim@example.test" });
  const login = await call("login", "POST", "/api/auth/login", { username, password });
  const token = login.token || login.accessToken;
  // The cookie now carries the signed-in account: a write without the bearer token needs CSRF.
  await call("cookie-write-without-bearer", "POST", "/api/auth/forgot-password", { email });
  await call("modules", "GET", "/api/modules/allowed", undefined, token);
  await call("machine-no-status", "PUT", `/api/machines/${params.get("machine")}`, {
    name: "Digester One",
    areaId: Number(params.get("area")),
  }, token);
  // The Machines tab renders the whole plain list (the browser asks for it compressed).
  await call("machines-plain", "GET", "/api/machines", undefined, token);
  await call("schedules", "GET", "/api/schedules", undefined, token);
  const areas = await call("areas", "GET", "/api/areas", undefined, token);
  const operators = await call("operators", "GET", "/api/operators", undefined, token);
  // Add / Edit / Delete Schedule, in the names the client's Schedule tab uses.
  const operator = (Array.isArray(operators) ? operators : []).find((o) => o.Username === params.get("operator"));
  const areaIds = (Array.isArray(areas) ? areas : []).slice(0, 2).map((a) => a.Area_id);
  const added = await call("schedule-add", "POST", "/api/schedules", {
    Account_id: operator ? operator.Account_id : 0,
    Contact: "09171234567",
    Area: areaIds,
    sched_stat_id: 2,
    Date_of_collection: "2026-03-01",
  }, token);
  await call("schedule-edit", "PUT", `/api/schedules/${added.Schedule_id}`, {
    Collector: "Maria S. Santos",
    sched_stat_id: 3,
  }, token);
  await call("schedules-after-edit", "GET", "/api/schedules", undefined, token);
  await call("schedule-delete", "DELETE", `/api/schedules/${added.Schedule_id}`, undefined, token);
  // Create User with the password field left blank: the client makes up 8 lower-case letters and digits.
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const generated = Array.from({ length: 8 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
  await call("create-user", "POST", "/api/admin/create", {
    FirstName: "Lito",
    LastName: "Reyes",
    Email: "lito.reyes@example.test",
    Roles: 3,
    Username: "lito.reyes",
    Password: generated,
    Access: [1, 2, 3, 4, 5],
  }, token);
  await call("fallback-pending", "GET", "/pending-accounts", undefined, token);
  await call("logout", "POST", "/api/auth/logout", undefined, token);
  // The new user signs in with that password (a temporary one), and out again.
  const newUser = await call("login-new-user", "POST", "/api/auth/login", {
    username: "lito.reyes",
    password: generated,
  });
  await call("logout-new-user", "POST", "/api/auth/logout", undefined, newUser.token);
  await call("login-again", "POST", "/api/auth/login", { username, password });
  finish();
}

if (location.pathname === "/email-verification") verifyEmail();
else run();
