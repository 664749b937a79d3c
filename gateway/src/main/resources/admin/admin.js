// The Anteroom admin page: talks only to the admin JSON API on this origin, with the token the
// operator typed (kept in sessionStorage, so it lives as long as this tab). Every value from the
// API reaches the page through textContent or an attribute, never as markup. Controls carry the
// role they need (data-needs); those the token's role cannot use are disabled, and the API refuses
// them all the same. Destructive actions ask first (ask()).
(function () {
  "use strict";

  var TOKEN_KEY = "anteroom-admin-token";
  var REFRESH_MS = 2000;
  var CHANGES_SHOWN = 5; // of the auto-pilot's last changes
  var AUDIT_SHOWN = 50;
  var API = "/admin/api";
  var ROLES = ["viewer", "operator", "admin"];
  var MODES = ["queue", "queue-all", "paused", "passthrough", "shadow", "closed"];
  var timer = null;
  var sections = {};
  var me = null; // {name, role} of the token, from /me
  var pending = null; // what the confirmation dialog does on "Yes"
  var holdUntil = 0; // the status line keeps an action's message or an error this long
  // Charts are drawn for the width they have, so their text keeps its size; they are redrawn when
  // that changes (window resized, scroll bar shown).
  var resized = new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var view = sections[entry.target.getAttribute("data-room")];
      if (view && view.charts === entry.target) { drawCharts(view); }
    });
  });

  function $(id) { return document.getElementById(id); }

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function token() { return sessionStorage.getItem(TOKEN_KEY); }

  // Whether the signed-in token's role includes `role`; nothing is allowed before /me answers.
  function can(role) {
    return Boolean(me) && ROLES.indexOf(me.role) >= ROLES.indexOf(role);
  }

  // Disables the controls under `root` that need a role the token does not have.
  function applyRole(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-needs]"), function (control) {
      var needs = control.getAttribute("data-needs");
      control.disabled = !can(needs);
      if (can(needs)) { control.removeAttribute("title"); } else {
        control.title = "Needs the " + needs + " role";
      }
    });
  }

  // Asks before a destructive action: the dialog names what will happen; "Yes" runs `action`.
  function ask(text, action) {
    pending = action;
    $("confirm-text").textContent = text;
    $("confirm").showModal();
    $("confirm-no").focus();
  }

  function answered(yes) {
    var action = pending;
    pending = null;
    $("confirm").close();
    if (yes && action) { action(); }
  }

  function status(text, isError) {
    holdUntil = Date.now() + 6000;
    var line = $("status");
    line.textContent = text;
    line.className = isError ? "status error" : "status";
  }

  function signedOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    clearTimeout(timer);
    me = null;
    $("sign-in").hidden = false;
    $("sign-out").hidden = true;
    $("who").hidden = true;
    $("audit").hidden = true;
    $("audit-entries").replaceChildren();
    $("rooms").replaceChildren();
    resized.disconnect();
    sections = {};
    status(message || "Sign in with the admin token.", Boolean(message));
  }

  function describe(body, fallback) {
    if (!body || !body.error) { return fallback; }
    var text = body.error;
    if (Array.isArray(body.problems) && body.problems.length) {
      text += ": " + body.problems.map(function (p) { return p.field + " " + p.message; }).join("; ");
    }
    return text;
  }

  // Calls the API; resolves to the JSON body of a 2xx answer, rejects with a readable message.
  function api(method, path, body) {
    var headers = { "Authorization": "Bearer " + token(), "Accept": "application/json" };
    var options = { method: method, headers: headers, cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(API + path, options).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (json) {
        if (response.status === 401) {
          signedOut("The token was not accepted. Sign in again.");
          throw new Error("not signed in");
        }
        if (!response.ok) { throw new Error(describe(json, "HTTP " + response.status)); }
        return json;
      });
    });
  }

  function queuePath(queue, action) {
    return "/rooms/" + encodeURIComponent(queue.room) + "/queues/" +
      encodeURIComponent(queue.item) + "/" + action;
  }

  function roomPath(room, rest) {
    return "/rooms/" + encodeURIComponent(room) + rest;
  }

  function act(queue, action, body) {
    api("POST", queuePath(queue, action), body).then(function () {
      status("Queue " + queue.room + ":" + queue.item + ": " + action + " done.");
      refresh();
    }, function (error) { status(error.message, true); });
  }

  function button(text, className, onClick, needs) {
    var node = el("button", { type: "button", "class": className }, text);
    if (needs) { node.setAttribute("data-needs", needs); }
    node.addEventListener("click", onClick);
    return node;
  }

  function select(name, label, values) {
    var node = el("select", { name: name, "aria-label": label, "data-needs": "operator" });
    values.forEach(function (value) { node.appendChild(el("option", { value: value }, value)); });
    return node;
  }

  // A form of the room's card: a label, its controls, a submit button; `needs` on each control.
  function form(className, label, controls, submit, needs) {
    var node = el("form", { "class": className });
    node.appendChild(el("span", {}, label));
    controls.forEach(function (control) {
      control.setAttribute("data-needs", needs);
      node.appendChild(control);
    });
    node.appendChild(el("button", { type: "submit", "class": submit[0], "data-needs": needs }, submit[1]));
    return node;
  }

  function section(room) {
    if (sections[room]) { return sections[room]; }
    var card = el("section", { "class": "card room", id: "room-" + room, "data-room": room });
    card.appendChild(el("h2", {}, "Room " + room));
    var settings = el("p", { "class": "settings" });
    card.appendChild(settings);
    var totals = el("p", { "class": "totals" });
    card.appendChild(totals);
    var charts = el("div", { "class": "charts", "data-room": room });
    card.appendChild(charts);
    resized.observe(charts);

    var pilot = autopilotPanel(room);
    card.appendChild(pilot.panel);

    var limits = limitsForm(room);
    card.appendChild(limits.form);
    card.appendChild(modeForm(room));
    card.appendChild(messageForm(room));
    var failure = failurePolicyForm(room);
    card.appendChild(failure.form);

    var itemInput = el("input", { type: "text", name: "item", required: "", maxlength: "1024",
      placeholder: "item id", "aria-label": "Item id to activate in room " + room });
    var activate = form("activate-form", "Activate a queue", [itemInput], ["activate-item", "Activate"],
      "operator");
    activate.addEventListener("submit", function (event) {
      event.preventDefault();
      var item = itemInput.value.trim();
      if (!item) { return; }
      act({ room: room, item: item }, "activate");
      itemInput.value = "";
    });
    card.appendChild(activate);
    card.appendChild(releaseForm(room));
    card.appendChild(arrivalsButton(room));

    var table = el("table", { "class": "queues" });
    var head = el("tr");
    [["Queue", ""], ["State", ""], ["Active", ""], ["Mode", ""], ["Rate/s", "number"],
      ["Waiting", "number"], ["Running", "number"], ["Finished", "number"],
      ["Admitted", "number"], ["", ""]].forEach(function (column) {
      head.appendChild(el("th", column[1] ? { "class": column[1] } : {}, column[0]));
    });
    table.appendChild(el("thead")).appendChild(head);
    var body = el("tbody");
    table.appendChild(body);
    card.appendChild(el("div", { "class": "table-scroll" })).appendChild(table);
    $("rooms").appendChild(card);
    applyRole(card);
    sections[room] = { settings: settings, totals: totals, limits: limits.inputs, body: body,
      charts: charts, failure: failure.current, history: null, asked: 0, drawnWidth: 0,
      pilot: pilot, pilotAsked: 0 };
    return sections[room];
  }

  // The room's recorded arrivals (record-arrivals) as a CSV file, for ./anteroom simulate.
  function arrivalsButton(room) {
    var button = el("button", { type: "button", "class": "arrivals" }, "Download arrivals");
    button.addEventListener("click", function () {
      var headers = { "Authorization": "Bearer " + token() };
      fetch(API + roomPath(room, "/arrivals"), { headers: headers, cache: "no-store" })
        .then(function (response) {
          if (!response.ok) { throw new Error("Arrivals of room " + room + ": HTTP " + response.status); }
          return response.blob();
        })
        .then(function (blob) {
          var url = URL.createObjectURL(blob);
          var link = el("a", { href: url, download: "arrivals-" + room + ".csv" });
          document.body.appendChild(link);
          link.click();
          link.remove();
          setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
        }, function (error) { status(error.message, true); });
    });
    return button;
  }

  // Rates and caps of the room: each filled field is set, the empty ones stay as they are.
  function limitsForm(room) {
    var fields = [["admit-per-second", "Admit/s"], ["new-users-per-minute", "New users/min"],
      ["max-active", "Max active per queue"], ["total-active-users", "Total active users"]];
    var inputs = {};
    var controls = fields.map(function (field) {
      var label = el("label", { "class": "limit" }, field[1] + " ");
      var input = el("input", { type: "text", inputmode: "decimal", name: field[0], size: "6",
        "data-needs": "operator", "aria-label": field[1] + " for room " + room });
      inputs[field[0]] = input;
      label.appendChild(input);
      return label;
    });
    var node = el("form", { "class": "rate" });
    node.appendChild(el("span", {}, "Rates and caps"));
    controls.forEach(function (control) { node.appendChild(control); });
    node.appendChild(el("button", { type: "submit", "class": "set-rate", "data-needs": "operator" },
      "Set"));
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      var patch = {};
      fields.forEach(function (field) {
        var value = inputs[field[0]].value.trim();
        if (value) { patch[field[0]] = value; }
      });
      var names = Object.keys(patch);
      if (!names.length) { return; }
      api("PATCH", roomPath(room, "/settings"), patch).then(function () {
        names.forEach(function (name) { inputs[name].value = ""; });
        status("Room " + room + ": " + names.map(function (name) {
          return name + " " + patch[name];
        }).join(", ") + ".");
        refresh();
      }, function (error) { status(error.message, true); });
    });
    return { form: node, inputs: inputs };
  }

  // The mode of the room, or of one of its queues: closing, pausing and letting everyone through
  // ask first, and so does clearing the line of a closed one.
  function modeForm(room) {
    var item = el("input", { type: "text", name: "item", maxlength: "1024", placeholder: "whole room",
      "aria-label": "Item id whose mode to set in room " + room + "; empty for the whole room" });
    var mode = select("mode", "Mode for room " + room, MODES);
    var line = select("closed-line", "When closed, the people in line of room " + room, ["keep", "clear"]);
    var lineLabel = el("label", { "class": "closed-line" }, "line: ");
    lineLabel.appendChild(line);
    var node = form("mode-form", "Mode", [item, mode], ["set-mode", "Set mode"], "operator");
    node.insertBefore(lineLabel, node.lastChild);
    function shown() { lineLabel.hidden = mode.value !== "closed"; }
    mode.addEventListener("change", shown);
    shown();
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      var target = item.value.trim();
      var what = target ? "queue " + room + ":" + target : "room " + room;
      var patch = { mode: mode.value };
      if (mode.value === "closed") { patch["closed-line"] = line.value; }
      var path = target ? "/queues/" + encodeURIComponent(target) + "/settings" : "/settings";
      var run = function () {
        api("PATCH", roomPath(room, path), patch).then(function () {
          status("The " + what + " is now " + mode.value + ".");
          refresh();
        }, function (error) { status(error.message, true); });
      };
      var warning = {
        "closed": "Close the " + what + ": visitors without a pass get the closed page" +
          (line.value === "clear" ? ", and everyone in line loses their place." : "; the line is kept."),
        "paused": "Pause the " + what + ": nobody is admitted until it is resumed.",
        "passthrough": "Let everyone through to the " + what + " without waiting.",
        "shadow": "Let everyone through to the " + what + " without waiting, and count who would" +
          " have waited in a virtual line. Switching to queue later starts from an empty line."
      }[mode.value];
      if (warning) { ask(warning, run); } else { run(); }
    });
    return node;
  }

  // The operator message, in the room's default language or, when chosen, in another of its page
  // languages (shown on pages in that language instead).
  function messageForm(room) {
    var input = el("input", { type: "text", name: "message", maxlength: "500",
      placeholder: "shown on every waiting page; empty removes it",
      "aria-label": "Message to visitors of room " + room });
    var language = el("select", { name: "language", "aria-label": "Language of the message",
      "data-needs": "operator", hidden: "" });
    var known = { message: null, messages: {} };
    var node = form("message-form", "Message to visitors", [input], ["set-message", "Set message"],
      "operator");
    node.insertBefore(language, node.lastChild);
    language.addEventListener("change", function () {
      input.value = (language.value ? known.messages[language.value] : known.message) || "";
    });
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = input.value.trim();
      var body = { message: value || null };
      if (language.value) { body.language = language.value; }
      api("PUT", roomPath(room, "/message"), body).then(function (answer) {
        known = answer;
        status(value ? "Room " + room + " now shows your message" +
          (language.value ? " in " + language.value + "." : ".") : "Room " + room + " shows no message.");
      }, function (error) { status(error.message, true); });
    });
    api("GET", roomPath(room, "/message")).then(function (body) {
      if (!body) { return; }
      known = body;
      if (body.message && !input.value) { input.value = body.message; }
      var others = (body.languages || []).filter(function (l) { return l !== body["default-language"]; });
      if (others.length) {
        language.replaceChildren(el("option", { value: "" }, body["default-language"] + " (default)"));
        others.forEach(function (l) { language.appendChild(el("option", { value: l }, l)); });
        language.hidden = false;
      }
    }, function () {});
    return node;
  }

  // The room's failure policy on the gateways (admins only); failing open asks first.
  function failurePolicyForm(room) {
    var choice = select("failure-policy", "Failure policy of room " + room, ["closed", "open"]);
    var current = el("strong", { "class": "failure-current" });
    var node = form("failure-form", "If Redis fails", [choice], ["set-failure-policy", "Set policy"],
      "admin");
    node.insertBefore(current, node.children[1]);
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = choice.value;
      var run = function () {
        api("PUT", roomPath(room, "/failure-policy"), { "failure-policy": value }).then(function (body) {
          current.textContent = body["failure-policy"];
          status("Room " + room + " now fails " + value + " (stored: " + body.stored + ").");
          refresh();
        }, function (error) { status(error.message, true); });
      };
      if (value === "open") {
        ask("Let everyone in to room " + room + " without waiting while Redis cannot be reached.", run);
      } else { run(); }
    });
    return { form: node, current: current };
  }

  // Ends a visitor's session, or gives up their place in line; asks first.
  function releaseForm(room) {
    var item = el("input", { type: "text", name: "item", required: "", maxlength: "1024",
      placeholder: "item id", "aria-label": "Item id of the visitor's queue in room " + room });
    var visitor = el("input", { type: "text", name: "visitor", required: "", maxlength: "64",
      placeholder: "visitor id", "aria-label": "Visitor id to release in room " + room });
    var node = form("release-form", "Release a visitor", [item, visitor], ["release", "Release"],
      "operator");
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      var target = { room: room, item: item.value.trim() };
      var id = visitor.value.trim();
      if (!target.item || !id) { return; }
      ask("Release visitor " + id + " from queue " + room + ":" + target.item +
        ": their session ends, or their place in line is given up.", function () {
        act(target, "release", { visitor: id });
        visitor.value = "";
      });
    });
    return node;
  }

  // The room's auto-pilot: what it does now and why, a switch (the room's autopilot setting), its
  // bounds, and its last changes. Filled by loadAutopilot, which enables the switch for operators.
  function autopilotPanel(room) {
    var panel = el("div", { "class": "autopilot", role: "group", "aria-label": "Auto-pilot of room " + room });
    var head = el("div", { "class": "autopilot-head" });
    head.appendChild(el("h3", {}, "Auto-pilot"));
    var toggle = el("button", { type: "button", role: "switch", "aria-checked": "false",
      "class": "secondary autopilot-switch", "aria-label": "Auto-pilot of room " + room, disabled: "" },
      "Off");
    toggle.addEventListener("click", function () {
      var on = toggle.getAttribute("aria-checked") !== "true";
      toggle.disabled = true;
      api("PATCH", "/rooms/" + encodeURIComponent(room) + "/settings", { autopilot: on ? "on" : "off" })
        .then(function () {
          status(on ? "Room " + room + ": the auto-pilot now paces admissions by the origin's health."
            : "Room " + room + ": auto-pilot off; admitting at the configured rate.");
          refresh();
        }, function (error) {
          toggle.disabled = !can("operator");
          status(error.message, true);
        });
    });
    head.appendChild(toggle);
    panel.appendChild(head);
    var summary = el("p", { "class": "autopilot-summary" });
    var bounds = el("p", { "class": "settings autopilot-bounds" });
    var changes = el("ul", { "class": "autopilot-changes", "aria-label": "Last changes of the auto-pilot" });
    panel.append(summary, bounds, changes);
    return { panel: panel, toggle: toggle, summary: summary, bounds: bounds, changes: changes };
  }

  function renderAutopilot(pilot, body) {
    pilot.toggle.setAttribute("aria-checked", body.on ? "true" : "false");
    pilot.toggle.textContent = body.on ? "On" : "Off";
    pilot.toggle.className = body.on ? "autopilot-switch" : "secondary autopilot-switch";
    pilot.toggle.disabled = !can("operator");
    pilot.summary.textContent = body.summary;
    pilot.bounds.replaceChildren();
    [["autopilot-p95", "Target p95"], ["autopilot-errors", "Errors tolerated"],
      ["autopilot-floor", "Floor/s"]].forEach(function (setting) {
      var item = el("span", { "data-setting": setting[0] }, setting[1] + ": ");
      item.appendChild(el("strong", {}, body.settings[setting[0]]));
      pilot.bounds.appendChild(item);
    });
    var per = el("span", {}, "Applies to: ");
    per.appendChild(el("strong", {}, body.per === "room" ? "the room's new users" : "each queue's rate"));
    pilot.bounds.appendChild(per);
    var shown = body.changes.slice(0, CHANGES_SHOWN).map(function (change) {
      var item = el("li", {});
      item.appendChild(el("time", { datetime: change.at }, new Date(change.at).toLocaleTimeString()));
      item.appendChild(document.createTextNode(" " + change.rate + "/s ("
        + Math.round(change.share * 100) + " %): " + change.reason));
      return item;
    });
    if (!shown.length) { shown.push(el("li", { "class": "empty" }, "No changes yet.")); }
    pilot.changes.replaceChildren.apply(pilot.changes, shown);
  }

  // As loadHistory: an answer overtaken by a later one, or arriving after sign-out, is dropped.
  function loadAutopilot(room) {
    var view = sections[room];
    var asked = ++view.pilotAsked;
    api("GET", "/rooms/" + encodeURIComponent(room) + "/autopilot").then(function (body) {
      if (sections[room] !== view || view.pilotAsked !== asked) { return; }
      renderAutopilot(view.pilot, body);
    }, function () {});
  }

  // What the virtual line of a queue in shadow mode shows, as a row under the queue's.
  function shadowRow(queue) {
    var figures = queue.shadow;
    var row = el("tr", { "class": "shadow-figures", "data-shadow": queue.queue });
    row.appendChild(el("td", { colspan: "10" }, "In line it would be: " + figures.waiting +
      " waiting, " + figures.active + " inside; wait p50 " + figures["wait-p50-seconds"] +
      " s, p90 " + figures["wait-p90-seconds"] + " s (last " + figures.waits + " admitted)"));
    return row;
  }

  function renderRoom(room) {
    var view = section(room.room);
    var shown = ["mode", "admit-per-second", "new-users-per-minute", "max-active",
      "total-active-users", "session-duration", "activate-above", "failure-policy"];
    view.settings.replaceChildren();
    shown.forEach(function (name) {
      var item = el("span", {}, name + ": ");
      item.appendChild(el("strong", {}, room.settings[name]));
      view.settings.appendChild(item);
    });
    Object.keys(view.limits).forEach(function (name) {
      view.limits[name].placeholder = room.settings[name];
    });
    view.failure.textContent = room.settings["failure-policy"];
    renderTotals(view.totals, room.totals);
    var rows = room.queues.map(function (queue) {
      var target = { room: room.room, item: queue.item };
      var row = el("tr", { "data-queue": queue.queue, "data-item": queue.item });
      row.appendChild(el("td", { "class": "item" }, queue.item));
      row.appendChild(el("td", { "class": "state state-" + queue.state }, queue.state));
      row.appendChild(el("td", { "class": "active" }, queue.active || "off"));
      row.appendChild(el("td", { "class": "mode" }, queue.mode));
      row.appendChild(el("td", { "class": "number rate" }, queue["admit-per-second"]));
      ["waiting", "running", "finished", "admitted"].forEach(function (count) {
        row.appendChild(el("td", { "class": "number " + count }, queue[count]));
      });
      var actions = el("td", { "class": "actions" });
      var name = room.room + ":" + queue.item;
      actions.appendChild(queue.active
        ? button("Deactivate", "secondary deactivate", function () { act(target, "deactivate"); },
          "operator")
        : button("Activate", "activate", function () { act(target, "activate"); }, "operator"));
      actions.appendChild(queue.mode === "paused"
        ? button("Resume", "resume", function () { act(target, "resume"); }, "operator")
        : button("Pause", "secondary pause", function () {
          ask("Pause queue " + name + ": nobody is admitted until it is resumed.", function () {
            act(target, "pause");
          });
        }, "operator"));
      row.appendChild(actions);
      applyRole(row);
      return queue.shadow ? [row, shadowRow(queue)] : [row];
    }).reduce(function (all, some) { return all.concat(some); }, []);
    if (!rows.length) {
      var empty = el("tr");
      empty.appendChild(el("td", { colspan: "10", "class": "empty" }, "No queue is on."));
      rows.push(empty);
    }
    view.body.replaceChildren.apply(view.body, rows);
  }

  // The room's figures next to its room-wide limits: "5 of 3000", or the figure alone when the room
  // has no such limit (the API says none).
  function renderTotals(line, totals) {
    line.replaceChildren();
    if (!totals) { return; }
    function item(name, label, value, limit) {
      var node = el("span", { "data-total": name }, label + ": ");
      node.appendChild(el("strong", {}, value));
      if (limit && limit !== "none") { node.appendChild(document.createTextNode(" of " + limit)); }
      line.appendChild(node);
    }
    item("active-users", "Active users", totals["active-users"], totals["total-active-users"]);
    item("new-users-per-minute", "New users/min",
      Number(totals["measured-new-users-per-minute"]).toFixed(1), totals["new-users-per-minute"]);
    item("waiting", "Waiting across queues", totals.waiting);
    var limited = totals["total-active-users"] !== "none" ||
      totals["new-users-per-minute"] !== "none";
    if (totals.full || limited) {
      line.appendChild(el("span", { "data-total": "full", "class": totals.full ? "full" : "" },
        totals.full ? "Full: newcomers wait" : "Not full"));
    }
  }

  // Fetches the room's last 15 minutes and redraws its charts; an answer overtaken by a later one,
  // or arriving after sign-out, is dropped. On failure the last charts stay (the status line shows
  // why the listing failed too).
  function loadHistory(room) {
    var view = sections[room];
    var asked = ++view.asked;
    api("GET", "/rooms/" + encodeURIComponent(room) + "/history").then(function (history) {
      if (sections[room] !== view || view.asked !== asked) { return; }
      view.history = history;
      view.drawnWidth = 0;
      drawCharts(view);
    }, function (error) {
      if (sections[room] === view && !view.history && token()) {
        view.charts.replaceChildren(el("p", { "class": "empty" }, "History: " + error.message));
      }
    });
  }

  function drawCharts(view) {
    var width = view.charts.clientWidth;
    if (view.history && width && width !== view.drawnWidth) {
      view.drawnWidth = width;
      AnteroomCharts.render(view.charts, view.history);
    }
  }

  // The audit trail's last entries, newest first. On failure the last ones stay.
  function loadAudit() {
    api("GET", "/audit?count=" + AUDIT_SHOWN).then(function (body) {
      if (!token()) { return; }
      var rows = body.entries.map(function (entry) {
        var row = el("tr", { "data-id": entry.id });
        var when = el("td", { "class": "at" });
        when.appendChild(el("time", { datetime: entry.at }, new Date(entry.at).toLocaleString()));
        row.appendChild(when);
        ["who", "from", "what", "target", "old", "new"].forEach(function (field) {
          row.appendChild(el("td", { "class": field }, entry[field]));
        });
        return row;
      });
      if (!rows.length) {
        var empty = el("tr");
        empty.appendChild(el("td", { colspan: "7", "class": "empty" }, "No changes yet."));
        rows.push(empty);
      }
      $("audit-entries").replaceChildren.apply($("audit-entries"), rows);
      $("audit").hidden = false;
    }, function () {});
  }

  // Who the token is; the page's controls follow its role.
  function loadMe() {
    return api("GET", "/me").then(function (body) {
      me = body;
      $("who").textContent = "Signed in as " + body.name + " (" + body.role + ")";
      $("who").hidden = false;
      applyRole(document);
    });
  }

  function refresh() {
    clearTimeout(timer);
    if (!token()) { return; }
    if (!me) {
      loadMe().then(refresh, function (error) {
        if (token()) {
          status(error.message, true);
          timer = setTimeout(refresh, REFRESH_MS);
        }
      });
      return;
    }
    api("GET", "/rooms").then(function (body) {
      body.rooms.forEach(function (room) {
        renderRoom(room);
        loadHistory(room.room);
        loadAutopilot(room.room);
      });
      loadAudit();
      if (Date.now() > holdUntil) {
        $("status").className = "status";
        $("status").textContent = "Updated " + new Date().toLocaleTimeString() + ".";
      }
      timer = setTimeout(refresh, REFRESH_MS);
    }, function (error) {
      if (token()) {
        status(error.message, true);
        timer = setTimeout(refresh, REFRESH_MS);
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("sign-in").addEventListener("submit", function (event) {
      event.preventDefault();
      var value = $("token").value.trim();
      if (!value) { return; }
      sessionStorage.setItem(TOKEN_KEY, value);
      $("token").value = "";
      $("sign-in").hidden = true;
      $("sign-out").hidden = false;
      status("Loading ...");
      refresh();
    });
    $("sign-out").addEventListener("click", function () { signedOut(); });
    $("confirm-yes").addEventListener("click", function () { answered(true); });
    $("confirm-no").addEventListener("click", function () { answered(false); });
    $("confirm").addEventListener("cancel", function () { pending = null; });
    if (token()) {
      $("sign-in").hidden = true;
      $("sign-out").hidden = false;
      refresh();
    } else {
      signedOut();
    }
  });
})();
