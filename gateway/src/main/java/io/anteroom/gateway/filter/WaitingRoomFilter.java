package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.arrival.ArrivalRecorder;
import io.anteroom.gateway.filter.Visitors.Visitor;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.shadow.ShadowJoins;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
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
 *   <li>a valid pass for this queue passes ({@link PassHolders}: checked locally, its session
 *       confirmed in Redis once per check interval);
 *   <li>a newcomer (no ticket for this queue either) may be recorded for a replay ({@link
 *       ArrivalRecorder}, in memory);
 *   <li>otherwise the queue's mode and state decide ({@link QueueGate}): a queue that is off gives
 *       out a pass and passes, a closed one shows the closed page, one that holds visitors puts
 *       them in line and answers with the waiting page ({@link LineEntry}); when the line cannot be
 *       reached, the room's failure policy lets the visitor through (marked) or answers 503.
 * </ol>
 */
final class WaitingRoomFilter implements GatewayFilter, Ordered {

  /** A raw item id and its queue. */
  private record LastQueue(String rawItem, QueueId queue) {}

  /**
   * What every room's filter shares, built once per gateway: the live policies, traffic counting,
   * the recording of arrivals, the queues' state, and the three steps of a request (who the visitor
   * is, pass holders, the line) with how each decision is answered.
   */
  record Shared(
      RoomPolicyMirror policies,
      HitFlusher hits,
      ArrivalRecorder arrivals,
      QueueGate gate,
      Visitors visitors,
      PassHolders holders,
      LineEntry line,
      Answers answers,
      ShadowJoins shadow) {}

  private final String room;
  private final ItemIds ids;
  private final Bypass bypass;
  private final RoomPolicyMirror policies;
  private final HitFlusher hits;
  private final ArrivalRecorder arrivals;
  private final QueueGate gate;
  private final Visitors visitors;
  private final PassHolders holders;
  private final LineEntry line;
  private final Answers answers;
  private final ShadowJoins shadow;

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
    this.gate = shared.gate();
    this.visitors = shared.visitors();
    this.holders = shared.holders();
    this.line = shared.line();
    this.answers = shared.answers();
    this.shadow = shared.shadow();
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
    String token = visitors.passToken(request, room);
    Pass pass = visitors.pass(request, room, token);
    if (pass != null && pass.opens(queue)) {
      if (holders.honours(pass, policy)) {
        return holders.enter(
            exchange,
            chain,
            queue,
            policy,
            pass,
            token,
            rest -> byQueue(exchange, chain, queue, policy, rest));
      }
      // Issued before a scheduled event's pre-queue opened: its holder lines up like anyone else.
      pass = null;
    }
    return byQueue(exchange, chain, queue, policy, pass);
  }

  /**
   * A visitor without a pass for this queue, as the queue's mode and state decide.
   *
   * @param pass the visitor's pass for other items of the room, or null
   */
  private Mono<Void> byQueue(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass) {
    Visitor visitor = visitors.visitor(exchange.getRequest(), room, policy, pass);
    if (policy.recordsArrivals() && newcomer(exchange, queue, policy, visitor)) {
      arrivals.record(queue, policy);
    }
    return switch (gate.verdict(queue, policy, pass != null)) {
      case ENTER -> {
        shadow.arrived(queue, policy, exchange.getRequest().getMethod());
        yield line.enter(exchange, chain, queue, policy, visitor);
      }
      case CLOSED -> line.closed(exchange, queue, policy, visitor);
      case WAIT -> line.meet(exchange, chain, queue, policy, visitor);
      case UNAVAILABLE -> answers.withoutLine(exchange, chain, room, policy);
    };
  }

  /**
   * Whether the visitor arrives now, whatever the verdict, as known without asking Redis: no ticket
   * for the queue, and no answer to a puzzle the room gave them before.
   */
  private boolean newcomer(
      ServerWebExchange exchange, QueueId queue, RoomPolicy policy, Visitor visitor) {
    Ticket ticket = visitor.ticket();
    if (ticket != null && ticket.queue().equals(queue)) {
      return false;
    }
    return policy.proofOfWork() == 0 || !visitors.answersChallenge(exchange.getRequest(), room);
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
