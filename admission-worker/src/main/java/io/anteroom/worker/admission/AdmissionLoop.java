package io.anteroom.worker.admission;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.RoomSettings;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.tick.PeriodicTask;
import io.anteroom.worker.WorkerProperties;
import io.anteroom.worker.activation.AutoDeactivation;
import io.anteroom.worker.metrics.HistoryWriter;
import io.anteroom.worker.metrics.LineMeters;
import io.anteroom.worker.metrics.RoomMeters;
import io.anteroom.worker.pilot.Pilots;
import io.anteroom.worker.shadow.ShadowMeters;
import io.anteroom.worker.shadow.ShadowWork;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Every tick, admits and expires for each active queue (across a room's queues together when the
 * room has room-wide limits), reads each room's running sessions, and turns off queues that traffic
 * turned on once they are quiet. A tick that comes while the previous one is still running is
 * skipped (and counted, {@link PeriodicTask}), so a slow Redis never piles up work. Any number of
 * loops, in any number of processes, may run against one Redis: the scripts are atomic and the
 * admission rate is kept by the token bucket in Redis.
 */
public final class AdmissionLoop implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(AdmissionLoop.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);

  private final ActiveQueues active;
  private final RoomPolicies policies;
  private final QueueWork work;
  private final RoomWork rooms;
  private final AutoDeactivation deactivation;
  private final LineMeters lines;
  private final RoomMeters roomMeters;
  private final HistoryWriter history;
  private final OutageCredit outage;
  private final GatewaySilence silence;
  private final Pilots pilots;
  private final ShadowWork shadow;
  private final ShadowMeters shadowMeters;
  private final Duration tick;
  private final int concurrency;
  private final Counter failedTicks;
  private final ThrottledWarnings warnings;
  private final PeriodicTask ticks;

  public AdmissionLoop(
      ActiveQueues active,
      RoomPolicies policies,
      QueueWork work,
      RoomWork rooms,
      AutoDeactivation deactivation,
      LineMeters lines,
      RoomMeters roomMeters,
      HistoryWriter history,
      GatewaySilence silence,
      Pilots pilots,
      ShadowWork shadow,
      ShadowMeters shadowMeters,
      WorkerProperties properties,
      Clock clock,
      MeterRegistry meters) {
    this.active = active;
    this.policies = policies;
    this.work = work;
    this.rooms = rooms;
    this.deactivation = deactivation;
    this.lines = lines;
    this.roomMeters = roomMeters;
    this.history = history;
    this.outage = new OutageCredit(clock, properties.tick());
    this.silence = silence;
    this.pilots = pilots;
    this.shadow = shadow;
    this.shadowMeters = shadowMeters;
    this.tick = properties.tick();
    this.concurrency = properties.queueConcurrency();
    this.failedTicks = meters.counter("anteroom.worker.ticks.failed");
    this.warnings = ThrottledWarnings.of(log, clock);
    this.ticks =
        new PeriodicTask("admission", tick, this::runOnce, clock, meters).withStopWait(STOP_WAIT);
  }

  /**
   * A loop over the given stores, with its queue and room work, the virtual lines of queues in
   * shadow mode, automatic deactivation, the lines' and rooms' gauges and the rooms' history.
   */
  public static AdmissionLoop create(
      ActiveQueues active,
      RoomPolicies policies,
      QueueStore store,
      ShadowLines shadowLines,
      RoomStore rooms,
      TrafficStore traffic,
      RoomHistory history,
      GatewayBeats beats,
      RedisPilot pilot,
      WorkerProperties properties,
      Clock clock,
      MeterRegistry meters) {
    LineMeters lines = new LineMeters(policies.rooms(), properties.metricQueuesPerRoom(), meters);
    QueueWork work = new QueueWork(store, lines, policies.rooms(), meters, clock);
    RoomMeters roomMeters = new RoomMeters(policies.rooms(), meters);
    ShadowMeters shadowMeters =
        new ShadowMeters(policies.rooms(), properties.metricQueuesPerRoom(), meters);
    return new AdmissionLoop(
        active,
        policies,
        work,
        new RoomWork(rooms, active, work, roomMeters, clock),
        new AutoDeactivation(traffic, active, policies.rooms(), meters, clock),
        lines,
        roomMeters,
        new HistoryWriter(history, clock),
        new GatewaySilence(beats, clock),
        new Pilots(pilot, policies.rooms(), meters, clock),
        new ShadowWork(shadowLines, shadowMeters, policies.rooms(), meters, clock),
        shadowMeters,
        properties,
        clock,
        meters);
  }

  @Override
  public synchronized void start() {
    if (!ticks.isRunning()) {
      outage.started();
      ticks.start();
      log.info("Admission loop started, tick={}", tick);
    }
  }

  /** Stops ticking and waits (at most two seconds) for a tick in flight to finish. */
  @Override
  public synchronized void stop() {
    ticks.stop();
  }

  @Override
  public boolean isRunning() {
    return ticks.isRunning();
  }

  /**
   * One tick over every active queue: admit, expire, and turn off a queue traffic turned on once it
   * is quiet; then update the gauges and the rooms' history. Completes when all are done, never
   * with an error.
   */
  public Mono<Void> runOnce() {
    return active
        .list()
        .doOnNext(queues -> outage.reached())
        .flatMap(
            queues ->
                silence.read().then(work(queues)).then(Mono.defer(() -> report(queues.keySet()))))
        .onErrorResume(
            error -> {
              failedTicks.increment();
              warnings.warn("tick", "Admission tick failed: {}", error.toString());
              return Mono.empty();
            });
  }

  /**
   * Every room with active queues (a room that is not configured, to warn of it), and the other
   * configured rooms when due for a reading of their sessions.
   */
  private Mono<Void> work(Map<QueueId, Activation> queues) {
    Map<String, Map<QueueId, Activation>> byRoom = byRoom(queues);
    // A room without active queues has only its sessions read, once a RoomWork.CHECK: its
    // settings need no read on the other ticks.
    Set<String> rooms = new TreeSet<>(byRoom.keySet());
    policies.rooms().stream().filter(this.rooms::isDue).forEach(rooms::add);
    return Flux.fromIterable(rooms)
        .flatMap(room -> withPolicy(room, byRoom.getOrDefault(room, Map.of())))
        .flatMap(this::work)
        .then();
  }

  /**
   * The room's own work and each active queue's, at the rates its auto-pilot sets: in a room with
   * room-wide limits the room's work makes the queues' admissions, so it comes first; otherwise
   * each queue admits on its own, and the room's reading of its sessions runs alongside, adding
   * nothing to the tick's length.
   */
  private Mono<Void> work(RoomJob room) {
    RoomPolicy configured = room.settings().policy();
    return pilots.share(room.name(), configured).flatMap(share -> work(room, share));
  }

  /** {@link #work(RoomJob)} at {@code share} of the configured rates (the auto-pilot's). */
  private Mono<Void> work(RoomJob room, double share) {
    RoomPolicy roomPolicy = credited(room.settings().policy()).paced(share);
    boolean together = roomPolicy.budget().limited();
    Map<QueueId, RoomPolicy> queues = new LinkedHashMap<>();
    room.jobs().forEach(job -> queues.put(job.queue(), credited(job.policy()).paced(share)));
    Mono<Void> roomWork = rooms.run(room.name(), roomPolicy, queues);
    Mono<Void> queueWork =
        Flux.fromIterable(room.jobs())
            .flatMap(
                job -> {
                  RoomPolicy policy = queues.get(job.queue());
                  Mono<Void> own =
                      together
                          ? work.runAdmitted(job.queue(), policy)
                          : work.run(job.queue(), policy);
                  // In shadow mode the queue stays on while its virtual line has people, as a
                  // real line would keep it on.
                  return own.then(shadow.run(job.queue(), policy))
                      .filter(empty -> empty)
                      .flatMap(empty -> deactivation.check(job.queue(), job.cause(), job.policy()));
                },
                concurrency)
            .then();
    return together ? roomWork.then(queueWork) : Mono.when(roomWork, queueWork);
  }

  /**
   * {@code policy} with {@code abandon-after} extended by the longer of this worker's recent outage
   * ({@link OutageCredit}) and the gateways' ({@link GatewaySilence}): polls could not arrive.
   */
  private RoomPolicy credited(RoomPolicy policy) {
    long extra = Math.max(outage.extraMs(policy), silence.extraMs(policy));
    return extra == 0 ? policy : policy.withAbandonAfter(policy.abandonAfter().plusMillis(extra));
  }

  private Mono<Void> report(Set<QueueId> queues) {
    Map<String, HistorySample> totals = lines.publish(queues);
    shadowMeters.publish(queues);
    roomMeters.observeLines(totals);
    return history.write(totals);
  }

  /** One active queue, why it is on, and its policy for this tick. */
  private record Job(QueueId queue, Activation cause, RoomPolicy policy) {}

  /** A room, its settings for this tick and its active queues. */
  private record RoomJob(String name, RoomSettings settings, List<Job> jobs) {}

  /** The room's settings, read once per tick, paired with each of its active queues. */
  private Mono<RoomJob> withPolicy(String room, Map<QueueId, Activation> queues) {
    return policies
        .current(room)
        .switchIfEmpty(
            Mono.fromRunnable(
                () ->
                    warnings.warn(
                        room, "room={} has active queues but is not configured; skipped", room)))
        .map(
            settings ->
                new RoomJob(
                    room,
                    settings,
                    queues.entrySet().stream()
                        .map(
                            q ->
                                new Job(
                                    q.getKey(), q.getValue(), settings.forItem(q.getKey().item())))
                        .toList()))
        .onErrorResume(
            error -> {
              failedTicks.increment();
              warnings.warn(room, "room={} policy could not be read: {}", room, error.toString());
              return Mono.empty();
            });
  }

  private static Map<String, Map<QueueId, Activation>> byRoom(Map<QueueId, Activation> queues) {
    return queues.entrySet().stream()
        .collect(
            Collectors.groupingBy(
                e -> e.getKey().room(), Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
  }
}
