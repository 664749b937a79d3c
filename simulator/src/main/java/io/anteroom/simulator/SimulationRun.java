package io.anteroom.simulator;

import static io.anteroom.simulator.Simulation.LONGEST;
import static io.anteroom.simulator.Simulation.MOST_ADMIT_CALLS;
import static io.anteroom.simulator.Simulation.ROOM;
import static io.anteroom.simulator.Simulation.START;
import static io.anteroom.simulator.Simulation.TICK;
import static io.anteroom.simulator.Simulation.WINDOW;
import static io.anteroom.simulator.Simulation.await;
import static io.anteroom.simulator.Simulation.id;
import static io.anteroom.simulator.Simulation.index;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.EnqueueResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The state of one {@link Simulation} run: sends each window's calls, reads the window before while
 * Redis runs them, and keeps who waited how long.
 */
final class SimulationRun {

  /** How often, in virtual ms, the lines' lengths are read for the timeline. */
  private static final long SAMPLE_EVERY = 1000;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final String label;
  private final RoomPolicy policy;
  private final Arrivals arrivals;
  private final Behaviour behaviour;
  private final SplittableRandom random;
  private final MutableClock clock = new MutableClock(START);
  private final QueueKeys keys = new QueueKeys("sim");
  private final RedisQueueStore store;
  private final QueueId[] queues;
  private final boolean[] used;
  private final long[] leaves;
  private final int[] waited;
  private final int admitCalls;
  private final Histogram waits = new Histogram(3);
  private final PriorityQueue<long[]> releases =
      new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
  private final Timeline timeline = new Timeline();

  /** Admitted visitors' last requests, by queue, written together after each window. */
  private final List<List<ScoredValue<String>>> activity;

  /** Calls that follow from the last window's replies, sent first in the next. */
  private final List<Future<?>> followUps = new ArrayList<>();

  private long admitted;
  private long atOnce;
  private long gone;
  private long longestLine;
  private long peakActive;

  SimulationRun(
      RedisClusterAsyncCommands<String, String> commands,
      String label,
      RoomPolicy policy,
      Arrivals arrivals,
      Behaviour behaviour,
      SplittableRandom random) {
    this.commands = commands;
    this.label = label;
    this.policy = policy;
    this.arrivals = arrivals;
    this.behaviour = behaviour;
    this.random = random;
    this.store = new RedisQueueStore(commands, keys, clock);
    this.queues =
        arrivals.items().stream().map(item -> QueueId.named(ROOM, item)).toArray(QueueId[]::new);
    this.used = new boolean[queues.length];
    this.leaves = new long[arrivals.size()];
    this.waited = new int[arrivals.size()];
    Arrays.fill(waited, -1);
    this.activity = perQueue();
    double perTick = policy.admitPerSecond() * TICK.toMillis() / 1000.0;
    this.admitCalls =
        (int)
            Math.min(
                MOST_ADMIT_CALLS,
                Math.max(1, Math.ceil((perTick + policy.burstTokens()) / policy.admitBatch())));
  }

  Outcome run() {
    long[] at = arrivals.at();
    int n = at.length;
    long tick = TICK.toMillis();
    long window = WINDOW.toMillis();
    int next = 0;
    long t = 0;
    // People in line at the end of the last window read; -1 until one is.
    long inLine = -1;
    long emptied = -1;
    long abandoned = 0;
    Window previous = null;
    while (next < n || inLine != 0 || t < arrivals.span()) {
      if (t + window > LONGEST.toMillis()) {
        throw new IllegalStateException(
            label
                + ": the line had not emptied after "
                + LONGEST.toDays()
                + " days of simulated time ("
                + inLine
                + " still waiting); is admission too slow for the crowd?");
      }
      Window sent = new Window(next);
      for (long end = t + window; t < end; ) {
        t += tick;
        while (next < n && at[next] <= t) {
          sent.joins.add(join(next++));
        }
        sendReleases(t);
        sent.ticks.add(sendTick(sent, new Tick(t, next)));
      }
      sent.arrived = next;
      sent.end = t;
      // The window before is read while Redis runs this one.
      if (previous != null) {
        abandoned += read(previous);
        inLine = previous.lastInLine;
        if (inLine == 0
            && previous.arrived == n
            && emptied < 0
            && previous.end >= arrivals.span()) {
          emptied = previous.end;
        }
      }
      previous = sent;
    }
    if (previous != null) {
      abandoned += read(previous);
      if (previous.lastInLine == 0 && emptied < 0) {
        emptied = previous.end;
      }
    }
    followUps.forEach(Simulation::await);
    return new Outcome(
        label,
        policy,
        n,
        admitted,
        atOnce,
        abandoned + gone,
        waits,
        longestLine,
        peakActive,
        Math.max(emptied, 0),
        timeline,
        arrivals.span(),
        waitByArrival());
  }

  /**
   * Reads {@code window}'s replies, once the calls that followed from the window before have been
   * answered; returns those the line finished as gone.
   */
  private long read(Window window) {
    followUps.forEach(Simulation::await);
    followUps.clear();
    return window.read();
  }

  /**
   * Sends the worker's tick at {@code moment} on every line (admission, then expiry), the read of
   * whom it admitted, and on the second the lines' lengths.
   */
  private Tick sendTick(Window sent, Tick moment) {
    clock.set(START.plusMillis(moment.at));
    double now = START.toEpochMilli() + moment.at;
    for (int q = 0; q < queues.length; q++) {
      if (used[q]) {
        for (int c = 0; c < admitCalls; c++) {
          sent.admits.add(store.admit(queues[q], policy).toFuture());
        }
        sent.expiries.add(store.expire(queues[q], policy).toFuture());
        moment.heads.add(commands.zrangebyscore(keys.running(queues[q]), Range.create(now, now)));
      }
    }
    if (moment.at % SAMPLE_EVERY == 0) {
      for (int q = 0; q < queues.length; q++) {
        if (used[q]) {
          moment.counts.add(commands.zcard(keys.waiting(queues[q])));
          moment.counts.add(commands.zcard(keys.running(queues[q])));
        }
      }
    }
    return moment;
  }

  /** Sends arrival {@code i}'s join, at the moment they arrive. */
  private Future<EnqueueResult> join(int i) {
    used[arrivals.item()[i]] = true;
    long patience = behaviour.patience().draw(random);
    leaves[i] = patience >= Spread.FOREVER ? Spread.FOREVER : arrivals.at()[i] + patience;
    clock.set(START.plusMillis(arrivals.at()[i]));
    return store.join(queue(i), id(i), policy).toFuture();
  }

  /** Ends, as the origin would, the sessions of visitors who left by {@code t}. */
  private void sendReleases(long t) {
    while (!releases.isEmpty() && releases.peek()[0] <= t) {
      long[] due = releases.poll();
      int i = (int) due[1];
      clock.set(START.plusMillis(due[0]));
      followUps.add(store.release(queue(i), id(i)).toFuture());
    }
  }

  /**
   * Visitor {@code i} was admitted at {@code t}: their wait is counted and their session begins,
   * unless they had left already (their place is spent; their session idles out).
   */
  private void admitted(int i, long t) {
    if (t > leaves[i]) {
      waited[i] = Integer.MIN_VALUE;
      gone++;
      return;
    }
    long wait = t - arrivals.at()[i];
    waited[i] = (int) Math.min(wait, Integer.MAX_VALUE);
    waits.recordValue(wait);
    admitted++;
    long stay = Math.min(behaviour.session().draw(random), LONGEST.toMillis());
    if (behaviour.release()) {
      releases.add(new long[] {t + stay, i});
    } else {
      activity
          .get(arrivals.item()[i])
          .add(ScoredValue.just(START.toEpochMilli() + t + stay, id(i)));
    }
  }

  /**
   * Sends the writes gathered in {@code byQueue} to each queue's {@code key}, a thousand members a
   * command, only moving scores of members there forward (XX GT), as a poll or a request would.
   */
  private void sendLatest(List<List<ScoredValue<String>>> byQueue, Function<QueueId, String> key) {
    for (int q = 0; q < queues.length; q++) {
      List<ScoredValue<String>> latest = byQueue.get(q);
      for (int k = 0; k < latest.size(); k += 1000) {
        @SuppressWarnings("unchecked")
        ScoredValue<String>[] chunk =
            latest.subList(k, Math.min(k + 1000, latest.size())).toArray(ScoredValue[]::new);
        followUps.add(commands.zadd(key.apply(queues[q]), ZAddArgs.Builder.xx().gt(), chunk));
      }
      latest.clear();
    }
  }

  /** The epoch millisecond of a waiting visitor's last poll: when they give up, or never. */
  private double lastPoll(int i) {
    return START.toEpochMilli() + Math.min(leaves[i], LONGEST.toMillis() * 2);
  }

  private double[] waitByArrival() {
    double[] sum = new double[Timeline.SLICES];
    long[] count = new long[Timeline.SLICES];
    long span = Math.max(1, arrivals.span() + 1);
    for (int i = 0; i < waited.length; i++) {
      if (waited[i] >= 0) {
        int slice = (int) (arrivals.at()[i] * Timeline.SLICES / span);
        sum[slice] += waited[i];
        count[slice]++;
      }
    }
    double[] mean = new double[Timeline.SLICES];
    for (int s = 0; s < mean.length; s++) {
      mean[s] = count[s] == 0 ? -1 : sum[s] / count[s];
    }
    return mean;
  }

  private List<List<ScoredValue<String>>> perQueue() {
    List<List<ScoredValue<String>>> lists = new ArrayList<>(queues.length);
    for (int q = 0; q < queues.length; q++) {
      lists.add(new ArrayList<>());
    }
    return lists;
  }

  private QueueId queue(int i) {
    return queues[arrivals.item()[i]];
  }

  /** The calls of one window, and what their replies tell. */
  private final class Window {

    private final int firstArrival;
    private final List<Future<EnqueueResult>> joins = new ArrayList<>();
    private final List<Future<AdmitResult>> admits = new ArrayList<>();
    private final List<Future<?>> expiries = new ArrayList<>();
    private final List<Tick> ticks = new ArrayList<>();
    private long lastInLine;
    private long end;
    private int arrived;

    Window(int firstArrival) {
      this.firstArrival = firstArrival;
    }

    /** Reads every reply, a tick at a time; returns those the line finished as gone. */
    long read() {
      List<List<ScoredValue<String>>> polls = perQueue();
      int i = firstArrival;
      for (Tick tick : ticks) {
        for (; i < tick.arrived; i++) {
          EnqueueResult result = await(joins.get(i - firstArrival));
          if (result.admitted()) {
            atOnce++;
            admitted(i, arrivals.at()[i]);
          } else if (result.position() > 0) {
            polls.get(arrivals.item()[i]).add(ScoredValue.just(lastPoll(i), id(i)));
          }
        }
        for (Future<List<String>> head : tick.heads) {
          for (String visitor : await(head)) {
            int k = index(visitor);
            if (waited[k] == -1) {
              admitted(k, tick.at);
            }
          }
        }
        if (!tick.counts.isEmpty()) {
          sample(tick);
        }
      }
      sendLatest(polls, keys::seen);
      sendLatest(activity, keys::running);
      long abandoned = 0;
      for (Future<AdmitResult> admit : admits) {
        abandoned += await(admit).abandoned();
      }
      expiries.forEach(Simulation::await);
      return abandoned;
    }

    private void sample(Tick tick) {
      long inLine = 0;
      long running = 0;
      for (int k = 0; k < tick.counts.size(); k += 2) {
        inLine += await(tick.counts.get(k));
        running += await(tick.counts.get(k + 1));
      }
      longestLine = Math.max(longestLine, inLine);
      peakActive = Math.max(peakActive, running);
      timeline.add(tick.at / 1000, inLine, running, admitted, tick.arrived);
      lastInLine = inLine;
    }
  }

  /**
   * One tick's reads: who was admitted at its moment, line lengths on the second.
   *
   * @param at the tick's moment, ms from the start
   * @param arrived arrivals joined by then
   */
  private record Tick(
      long at, int arrived, List<Future<List<String>>> heads, List<Future<Long>> counts) {

    Tick(long at, int arrived) {
      this(at, arrived, new ArrayList<>(), new ArrayList<>());
    }
  }
}
