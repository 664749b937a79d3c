package io.anteroom.gateway.filter;

import io.anteroom.gateway.GatewayProperties;
import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.arrival.ArrivalRecorder;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.line.LineEvents;
import io.anteroom.gateway.line.Turns;
import io.anteroom.gateway.line.Visits;
import io.anteroom.gateway.origin.OriginMeters;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.shadow.ShadowJoins;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.shadow.ShadowLines;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The waiting room filter's parts, each built once per gateway: how each turn is answered ({@link
 * Answers}: on to the origin, {@link Forwarder}, or a page), and the visitors' turns themselves,
 * built in {@link io.anteroom.gateway.line.LineConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
public class FilterConfiguration {

  /** Failures the filter's parts log, each kind at most every 10 s. */
  private static ThrottledWarnings warnings(Clock clock) {
    return ThrottledWarnings.of(LoggerFactory.getLogger(WaitingRoomFilter.class), clock);
  }

  /** Also one of the framework's header filters, which scrubs what the forwarder marks. */
  @Bean
  RequestScrubber requestScrubber(GatewayProperties gateway) {
    return new RequestScrubber(gateway.forwardPassHeader());
  }

  @Bean
  Forwarder forwarder(
      RequestScrubber scrubber,
      Passes passes,
      SessionChecks checks,
      QueueStore store,
      RedisGuard redis,
      LineEvents events,
      OriginMeters origin,
      Tickets tickets,
      Clock clock) {
    Reentries reentries =
        new Reentries(store, redis, passes, tickets, checks, events, warnings(clock), clock);
    return new Forwarder(
        scrubber, passes, checks, store, redis, events, warnings(clock), origin, reentries);
  }

  @Bean
  Answers answers(
      Forwarder forwarder, WaitingResponses responses, LimitResponses limits, Decisions decisions) {
    return new Answers(forwarder, responses, limits, decisions);
  }

  @Bean
  DirectEntry directEntry(
      RoomStore rooms,
      RedisGuard redis,
      PassRegistrar registrar,
      ActiveQueueMirror mirror,
      RoomPolicyMirror policies) {
    return new DirectEntry(rooms, redis, registrar, mirror, policies);
  }

  @Bean
  WaitingRoomGatewayFilterFactory waitingRoomGatewayFilterFactory(
      AnteroomProperties anteroom,
      GatewayProperties gateway,
      ClientAddress clients,
      RoomPolicyMirror policies,
      HitFlusher hits,
      ArrivalRecorder arrivals,
      Visits visits,
      Turns turns,
      Answers answers) {
    return new WaitingRoomGatewayFilterFactory(
        RoomRules.of(anteroom, gateway, clients),
        new WaitingRoomFilter.Shared(policies, hits, arrivals, visits, turns, answers));
  }

  @Bean
  ShadowJoins shadowJoins(
      ShadowLines lines,
      ActiveQueueMirror mirror,
      RedisGuard redis,
      AnteroomProperties anteroom,
      MeterRegistry meters,
      Clock clock) {
    return new ShadowJoins(lines, mirror, redis, anteroom.rooms().keySet(), meters, clock);
  }
}
