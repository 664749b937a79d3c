package io.anteroom.gateway;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.activation.AutoActivator;
import io.anteroom.gateway.activation.HitCounter;
import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.arrival.ArrivalRecorder;
import io.anteroom.gateway.filter.BypassSecretStripper;
import io.anteroom.gateway.filter.Decisions;
import io.anteroom.gateway.line.Turns;
import io.anteroom.gateway.line.Visits;
import io.anteroom.gateway.origin.OriginFailures;
import io.anteroom.gateway.origin.OriginHeadersRegistrar;
import io.anteroom.gateway.origin.OriginMeters;
import io.anteroom.gateway.origin.OriginReporter;
import io.anteroom.gateway.origin.OriginWatch;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.room.FailurePolicyGauges;
import io.anteroom.gateway.room.FailurePolicySwitch;
import io.anteroom.gateway.room.RoomMessages;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.StatusHandler;
import io.anteroom.gateway.status.WaitingPage;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.config.QueueCoreConfiguration;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.tick.PeriodicTask;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;

/**
 * Wires the waiting room: mirrors of Redis state, traffic counting, tokens, the filter and the
 * status endpoint.
 */
@Configuration(proxyBeanMethods = false)
@Import(QueueCoreConfiguration.class)
class GatewayConfiguration {

  private static final Logger log = LoggerFactory.getLogger(GatewayConfiguration.class);

  @Bean
  RoomPolicyMirror roomPolicyMirror(RoomPolicies policies, Clock clock) {
    return new RoomPolicyMirror(policies, clock);
  }

  @Bean
  FailurePolicyGauges failurePolicyGauges(
      AnteroomProperties anteroom, RoomPolicyMirror mirror, MeterRegistry meters) {
    return new FailurePolicyGauges(anteroom.rooms().keySet(), mirror, meters);
  }

  @Bean
  FailurePolicySwitch failurePolicySwitch(RoomPolicyMirror mirror, SettingsStore settings) {
    return new FailurePolicySwitch(mirror, settings);
  }

  /** Writes failure policies set while Redis was down, then reads the live settings. */
  @Bean
  PeriodicTask roomPolicyRefresh(
      RoomPolicyMirror mirror,
      FailurePolicySwitch flips,
      GatewayProperties gateway,
      Clock clock,
      MeterRegistry meters) {
    return new PeriodicTask(
        "settings",
        gateway.mirrorRefresh(),
        () -> flips.writeHeld().then(mirror.refresh()),
        clock,
        meters);
  }

  @Bean
  PeriodicTask hitFlush(
      HitFlusher flusher, GatewayProperties gateway, Clock clock, MeterRegistry meters) {
    return new PeriodicTask("hits", gateway.hitFlush(), flusher::flush, clock, meters);
  }

  @Bean
  ArrivalRecorder arrivalRecorder(
      AnteroomProperties anteroom, RedisArrivals arrivals, MeterRegistry meters, Clock clock) {
    return new ArrivalRecorder(anteroom.rooms().keySet(), arrivals, meters, clock);
  }

  /** Sends the recorded arrivals; once more on stop, so a gateway leaving keeps its last second. */
  @Bean
  PeriodicTask arrivalFlush(ArrivalRecorder recorder, Clock clock, MeterRegistry meters) {
    return new PeriodicTask("arrivals", ArrivalRecorder.EVERY, recorder::flush, clock, meters)
        .withLastRunOnStop();
  }

  @Bean(destroyMethod = "leave")
  GatewayPulse gatewayPulse(GatewayBeats beats, RedisGuard redis) {
    return new GatewayPulse(beats, redis);
  }

  @Bean
  PeriodicTask gatewayBeat(GatewayPulse pulse, Clock clock, MeterRegistry meters) {
    return new PeriodicTask("beat", GatewayPulse.EVERY, pulse::beat, clock, meters);
  }

  @Bean
  PeriodicTask passRegistration(
      PassRegistrar registrar, GatewayProperties gateway, Clock clock, MeterRegistry meters) {
    return new PeriodicTask("passes", gateway.registerFlush(), registrar::flush, clock, meters)
        .withLastRunOnStop();
  }

  @Bean
  ActiveQueueMirror activeQueueMirror(
      ActiveQueues active,
      DeferredRedisConnector redis,
      QueueKeys keys,
      GatewayProperties gateway,
      Clock clock,
      MeterRegistry meters) {
    return new ActiveQueueMirror(
        active,
        redis.connectPubSub(),
        keys.activeChanged(),
        gateway.mirrorRefresh(),
        clock,
        meters);
  }

  @Bean
  AutoActivator autoActivator(
      ActiveQueues active,
      ActiveQueueMirror mirror,
      RoomStore rooms,
      GatewayProperties gateway,
      AnteroomProperties anteroom,
      MeterRegistry meters,
      Clock clock) {
    return new AutoActivator(
        active,
        mirror,
        rooms,
        gateway.maxQueuesPerRoom(),
        anteroom.rooms().keySet(),
        meters,
        clock);
  }

  @Bean
  QueueGate queueGate(ActiveQueueMirror mirror, AutoActivator activator, Clock clock) {
    return new QueueGate(mirror, activator, clock);
  }

  @Bean
  HitFlusher hitFlusher(
      TrafficStore traffic,
      AutoActivator activator,
      ActiveQueueMirror mirror,
      RoomPolicyMirror policies,
      GatewayProperties gateway,
      MeterRegistry meters,
      Clock clock) {
    return new HitFlusher(
        new HitCounter(gateway.hitCapacity()), traffic, activator, mirror, policies, meters, clock);
  }

  @Bean
  PassRegistrar passRegistrar(
      QueueStore store,
      RoomPolicyMirror policies,
      GatewayProperties gateway,
      MeterRegistry meters,
      Clock clock) {
    return new PassRegistrar(store, policies, meters, clock);
  }

  /** The breaker comes from resilience4j's registry, configured by {@code resilience4j.*}. */
  @Bean
  RedisGuard redisGuard(CircuitBreakerRegistry breakers) {
    return new RedisGuard(breakers.circuitBreaker(RedisGuard.BREAKER));
  }

  @Bean
  AnteroomCookies anteroomCookies(GatewayProperties gateway) {
    return new AnteroomCookies(gateway.cookieSecure());
  }

  @Bean
  Passes passes(TokenCodec tokens, AnteroomCookies cookies, Clock clock) {
    return new Passes(tokens, cookies, clock);
  }

  @Bean
  Tickets tickets(TokenCodec tokens, AnteroomCookies cookies, Clock clock) {
    return new Tickets(tokens, cookies, clock);
  }

  @Bean
  SessionChecks sessionChecks(
      QueueStore store, RedisGuard redis, Clock clock, MeterRegistry meters) {
    return new SessionChecks(store, redis, clock, meters);
  }

  @Bean
  WaitingPage waitingPage(AnteroomProperties anteroom) {
    return WaitingPage.of(anteroom);
  }

  @Bean
  RoomMessages roomMessages(
      DeferredRedisConnector redis, QueueKeys keys, AnteroomProperties anteroom) {
    return new RoomMessages(redis.commands(), keys, anteroom.rooms().keySet());
  }

  @Bean
  PeriodicTask roomMessageRefresh(
      RoomMessages messages, GatewayProperties gateway, Clock clock, MeterRegistry meters) {
    return new PeriodicTask("messages", gateway.mirrorRefresh(), messages::refresh, clock, meters);
  }

  @Bean
  WaitingResponses waitingResponses(
      GatewayProperties gateway, WaitingPage page, RoomMessages messages) {
    return new WaitingResponses(page, gateway.waitingStatus(), messages::message);
  }

  @Bean
  LimitResponses limitResponses(WaitingPage pages) {
    return new LimitResponses(pages);
  }

  @Bean
  Decisions decisions(AnteroomProperties anteroom, MeterRegistry meters) {
    return new Decisions(anteroom.rooms().keySet(), meters);
  }

  @Bean
  OriginWatch originWatch(AnteroomProperties anteroom, Clock clock) {
    return new OriginWatch(anteroom.rooms().keySet(), clock);
  }

  /**
   * Spring Cloud Gateway's header filters, which copy every header once each, replaced by one copy
   * a request ({@link io.anteroom.gateway.origin.OriginHeaders}).
   */
  @Bean
  static OriginHeadersRegistrar originHeadersRegistrar() {
    return new OriginHeadersRegistrar();
  }

  @Bean
  OriginFailures originFailures() {
    return new OriginFailures();
  }

  @Bean
  OriginMeters originMeters(AnteroomProperties anteroom, OriginWatch watch, MeterRegistry meters) {
    return new OriginMeters(anteroom.rooms().keySet(), watch, meters);
  }

  @Bean
  PeriodicTask originReports(
      OriginWatch watch,
      RedisPilot pilot,
      RoomPolicyMirror policies,
      RedisGuard redis,
      GatewayPulse pulse,
      Clock clock,
      MeterRegistry meters) {
    OriginReporter reporter = new OriginReporter(watch, pilot, policies, redis, pulse.id(), clock);
    return new PeriodicTask("origin", OriginReporter.EVERY, reporter::report, clock, meters);
  }

  @Bean
  BypassSecretStripper bypassSecretStripper() {
    return new BypassSecretStripper();
  }

  @Bean
  StatusHandler statusHandler(
      RoomPolicyMirror policies,
      Visits visits,
      Turns turns,
      RoomMessages messages,
      WaitingPage page) {
    return new StatusHandler(
        policies,
        visits,
        turns,
        (room, acceptLanguage) ->
            messages.message(room, page.text(room, acceptLanguage).language()));
  }

  @Bean
  RouterFunction<ServerResponse> statusRoute(StatusHandler status) {
    return RouterFunctions.route(RequestPredicates.GET(StatusHandler.PATH), status::status);
  }

  /**
   * Turns on the queues of {@code anteroom.gateway.activate-on-start}, once Redis has been reached
   * when the gateway started without it.
   */
  @Bean
  ApplicationRunner activateOnStart(
      GatewayProperties gateway,
      DeferredRedisConnector redis,
      ActiveQueues active,
      ActiveQueueMirror mirror) {
    return args ->
        redis
            .connector()
            .flatMapMany(connected -> Flux.fromIterable(gateway.queuesToActivate()))
            .concatMap(
                queue ->
                    active
                        .activate(queue, Activation.MANUAL)
                        .doOnNext(changed -> log.info("Queue {} turned on at start", queue)))
            .then(mirror.refresh())
            .subscribe(
                null,
                error -> log.warn("Queues could not be turned on at start: {}", error.toString()));
  }
}
