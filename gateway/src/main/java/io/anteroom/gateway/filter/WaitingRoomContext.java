package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.identity.Identities;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.util.Map;

/** What every room's filter shares; built once per gateway. */
record WaitingRoomContext(
    Map<String, ItemIds> itemIds,
    RoomPolicyMirror policies,
    QueueGate gate,
    HitFlusher hits,
    VisitorTokens visitorTokens,
    AnteroomCookies cookies,
    Proofs proofs,
    Line line,
    Forwarder forwarder,
    Map<String, Bypass> bypasses,
    WaitingResponses responses,
    Decisions decisions,
    ThrottledWarnings warnings,
    Identities identities,
    PlaceGuard places,
    LimitResponses limits,
    Passes passes,
    SessionChecks checks,
    Clock clock) {

  Bypass bypass(String room) {
    return bypasses.get(room);
  }

  ItemIds itemIds(String room) {
    return itemIds.get(room);
  }
}
