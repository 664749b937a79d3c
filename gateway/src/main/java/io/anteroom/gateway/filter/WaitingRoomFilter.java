package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.arrival.ArrivalRecorder;
import io.anteroom.gateway.line.Turns;
import io.anteroom.gateway.line.Visit;
import io.anteroom.gateway.line.Visits;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The waiting room on one route. Per request, in this order:
 *
 * <ol>
 *   <li>an item id the room does not accept is refused, never forwarded;
 *   <li>requests the room's bypass rules name (static assets, listed paths and networks, the
 *       monitoring secret) pass;
 *   <li>the request is counted for activation by traffic;
 *   <li>who the visitor is ({@link Visits}); a newcomer (no ticket for this queue either) may be
 *       recorded for a replay ({@link ArrivalRecorder}, in memory);
 *   <li>the visitor's turn ({@link Turns}): a pass holder passes, anyone else meets the queue by
 *       its mode and state; the turn is answered as a forward or a page ({@link Answers}).
 * </ol>
 */
final class WaitingRoomFilter implements GatewayFilter, Ordered {

  /** A raw item id and its queue. */
  private record LastQueue(String rawItem, QueueId queue) {}

  /**
   * What every room's filter shares, built once per gateway: the live policies, traffic counting,
   * the recording of arrivals, who visitors are, their turns and how each turn is answered.
   */
  record Shared(
      RoomPolicyMirror policies,
      HitFlusher hits,
      ArrivalRecorder arrivals,
      Visits visits,
      Turns turns,
      Answers answers) {}

  private final String room;
  private final ItemIds ids;
  private final Bypass bypass;
  private final RoomPolicyMirror policies;
  private final HitFlusher hits;
  private final ArrivalRecorder arrivals;
  private final Visits visits;
  private final Turns turns;
  private final Answers answers;

  /**
   * The queue of the item asked for last: during a rush most requests name the same item, and
   * checking its id again costs three regular expressions. Any thread may replace it; each value is
   * right for its own raw id.
   */
  private volatile LastQueue lastQueue;

  WaitingRoomFilter(String room, ItemIds ids, Bypass bypass, Shared shared) {
    this.room = room;
    this.ids = ids;
    this.bypass = bypass;
    this.policies = shared.policies();
    this.hits = shared.hits();
    this.arrivals = shared.arrivals();
    this.visits = shared.visits();
    this.turns = shared.turns();
    this.answers = shared.answers();
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 100;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    String item = ids.of(exchange);
    if (item == null) {
      return answers.invalidItem(room, ids.refuse(exchange));
    }
    if (bypass.matches(exchange)) {
      return answers.bypassed(exchange, chain, room);
    }
    QueueId queue = queue(item);
    RoomPolicy policy = policies.policy(queue);
    hits.record(queue, policy);
    ServerHttpRequest request = exchange.getRequest();
    String token = visits.passToken(request, room);
    Visit visit = visits.visit(request, queue, policy, visits.pass(request, room, token), token);
    if (unnamedWrite(exchange, item, visit)) {
      return answers.invalidItem(room, ids.refuse(exchange));
    }
    if (policy.recordsArrivals() && newcomer(request, visit)) {
      arrivals.record(queue, policy);
    }
    return turns.take(visit).flatMap(turn -> answers.turn(exchange, chain, visit, turn));
  }

  /**
   * Whether the visitor arrives now, whatever their turn, as known without asking Redis: no pass
   * and no ticket for the queue, and no answer to a puzzle the room gave them before.
   */
  private boolean newcomer(ServerHttpRequest request, Visit visit) {
    if (visit.ticketHere() || (visit.pass() != null && visit.pass().opens(visit.queue()))) {
      return false;
    }
    return visit.policy().proofOfWork() == 0 || !visits.answersChallenge(request, room);
  }

  /**
   * A write naming no item in a room that reads its items from parameters or headers, by a visitor
   * without a pass of the room: the origin may find the item elsewhere (a form, a body), so it is
   * refused rather than let past the room-wide line, which is mostly off.
   */
  private boolean unnamedWrite(ServerWebExchange exchange, String item, Visit visit) {
    if (!item.equals(QueueId.ROOM_WIDE) || !ids.source().readsParameters()) {
      return false;
    }
    HttpMethod method = exchange.getRequest().getMethod();
    if (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method)) {
      return false;
    }
    Pass pass = visit.pass();
    return pass == null || pass.entitlements().isEmpty();
  }

  private QueueId queue(String rawItem) {
    LastQueue last = lastQueue;
    if (last != null && last.rawItem().equals(rawItem)) {
      return last.queue();
    }
    QueueId queue = QueueId.of(room, rawItem);
    lastQueue = new LastQueue(rawItem, queue);
    return queue;
  }
}
