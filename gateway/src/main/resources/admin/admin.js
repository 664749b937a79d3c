// The Anteroom admin page: talks only to the admin JSON API on this origin, with the token the
// operator typed (kept in sessionStorage, so it lives as long as this tab). Every value from the
// API reaches the page through textContent or an attribute, never as markup.
(function () {
  "use strict";

  var TOKEN_KEY = "anteroom-admin-token";
  var REFRESH_MS = 2000;
  var CHANGES_SHOWN = 5; // of the auto-pilot's last changes
  var API = "/admin/api";
  var timer = null;
  var sections = {};
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

  function status(text, isError) {
    holdUntil = Date.now() + 6000;
    var line = $("status");
    line.textContent = text;
    line.className = isError ? "status error" : "status";
  }

  function signedOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    clearTimeout(timer);
    $("sign-in").hidden = false;
    $("sign-out").hidden = true;
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

  function act(queue, action) {
    api("POST", queuePath(queue, action)).then(function () {
      status("Queue " + queue.room + ":" + queue.item + ": " + action + " done.");
      refresh();
    }, function (error) { status(error.message, true); });
  }

  function button(text, className, onClick) {
    var node = el("button", { type: "button", "class": className }, text);
    node.addEventListener("click", onClick);
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

    var rate = el("form", { "class": "rate" });
    var rateInput = el("input", { type: "number", name: "admit-per-second", min: "0", step: "any",
      "aria-label": "Admit per second for room " + room });
    rate.append(el("span", {}, "Admit per second"), rateInput,
      el("button", { type: "submit", "class": "set-rate" }, "Set rate"));
    rate.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = rateInput.value.trim();
      if (!value) { return; }
      api("PATCH", "/rooms/" + encodeURIComponent(room) + "/settings", { "admit-per-second": value })
        .then(function () {
          rateInput.value = "";
          status("Room " + room + " now admits " + value + " per second.");
          refresh();
        }, function (error) { status(error.message, true); });
    });
    card.appendChild(rate);

    var notice = el("form", { "class": "message-form" });
    var messageInput = el("input", { type: "text", name: "message", maxlength: "500",
      placeholder: "shown on every waiting page; empty removes it",
      "aria-label": "Message to visitors of room " + room });
    notice.append(el("span", {}, "Message to visitors"), messageInput,
      el("button", { type: "submit", "class": "set-message" }, "Set message"));
    notice.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = messageInput.value.trim();
      api("PUT", "/rooms/" + encodeURIComponent(room) + "/message", { message: value || null })
        .then(function () {
          status(value ? "Room " + room + " now shows your message." : "Room " + room
            + " shows no message.");
        }, function (error) { status(error.message, true); });
    });
    card.appendChild(notice);
    api("GET", "/rooms/" + encodeURIComponent(room) + "/message").then(function (body) {
      if (body && body.message && !messageInput.value) { messageInput.value = body.message; }
    }, function () {});

    var activate = el("form", { "class": "activate-form" });
    var itemInput = el("input", { type: "text", name: "item", required: "", maxlength: "1024",
      placeholder: "item id", "aria-label": "Item id to activate in room " + room });
    activate.append(el("span", {}, "Activate a queue"), itemInput,
      el("button", { type: "submit", "class": "activate-item" }, "Activate"));
    activate.addEventListener("submit", function (event) {
      event.preventDefault();
      var item = itemInput.value.trim();
      if (!item) { return; }
      act({ room: room, item: item }, "activate");
      itemInput.value = "";
    });
    card.appendChild(activate);

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
    sections[room] = { settings: settings, totals: totals, rate: rateInput, body: body, charts: charts,
      history: null, asked: 0, drawnWidth: 0, pilot: pilot, pilotAsked: 0 };
    return sections[room];
  }

  // The room's auto-pilot: what it does now and why, a switch (the room's autopilot setting), its
  // bounds, and its last changes. Filled by loadAutopilot.
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
          toggle.disabled = false;
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
    pilot.toggle.disabled = false;
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

  function renderRoom(room) {
    var view = section(room.room);
    var shown = ["mode", "admit-per-second", "max-active", "session-duration", "activate-above"];
    view.settings.replaceChildren();
    shown.forEach(function (name) {
      var item = el("span", {}, name + ": ");
      item.appendChild(el("strong", {}, room.settings[name]));
      view.settings.appendChild(item);
    });
    view.rate.placeholder = room.settings["admit-per-second"];
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
      actions.appendChild(queue.active
        ? button("Deactivate", "secondary deactivate", function () { act(target, "deactivate"); })
        : button("Activate", "activate", function () { act(target, "activate"); }));
      actions.appendChild(queue.mode === "paused"
        ? button("Resume", "resume", function () { act(target, "resume"); })
        : button("Pause", "secondary pause", function () { act(target, "pause"); }));
      row.appendChild(actions);
      return row;
    });
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

  function refresh() {
    clearTimeout(timer);
    if (!token()) { return; }
    api("GET", "/rooms").then(function (body) {
      body.rooms.forEach(function (room) {
        renderRoom(room);
        loadHistory(room.room);
        loadAutopilot(room.room);
      });
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
    if (token()) {
      $("sign-in").hidden = true;
      $("sign-out").hidden = false;
      refresh();
    } else {
      signedOut();
    }
  });
})();
