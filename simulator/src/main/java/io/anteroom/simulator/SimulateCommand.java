package io.anteroom.simulator;

import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code ./anteroom simulate}: reads the options, starts a redis-server of its own on a free
 * loopback port (the installed one, else the one the embedded-redis jar ships), runs the arrivals
 * once per compared setting ({@link Simulation}), prints the tables and draws the chart. It never
 * connects to any other Redis, so no live room can change.
 */
public final class SimulateCommand {

  static final String USAGE =
      """
      Usage: ./anteroom simulate [options]

      Runs arrivals through Anteroom's own admission scripts and worker loop on a redis-server
      of its own, with a virtual clock, and reports waits, line length and active sessions.

      Arrivals (at least one; several --arrivals add up):
        --arrivals crowd:N/T       N people, each at a random moment within T (200000/60s)
        --arrivals poisson:R/T     a Poisson stream of R people a second for T (300/1h)
        --arrivals ramp:A-B/T      a Poisson stream whose rate moves from A to B a second over T
        --recording FILE           a room's recorded arrivals (GET /admin/api/rooms/{room}/arrivals)
      Settings (a room's, as in anteroom.rooms.<room>; defaults otherwise):
        --set NAME=VALUE           e.g. --set admit-per-second=50 --set max-active=2000
        --compare NAME=V1,V2,...   one run per value, side by side
      Visitors:
        --session SPREAD           how long an admitted visitor stays (default exp:5m)
        --patience SPREAD          how long one waits before giving up (default never)
        --release                  the origin releases each session when its visitor leaves
                                   (otherwise a session idles out after session-duration)
        SPREAD: 5m (fixed), exp:5m (exponential, mean), uniform:2m-8m, never
      Output:
        --chart FILE.png           where to draw the chart (default simulation.png)
        --seed N                   the random seed (default 1): the same seed, the same run
      """;

  private SimulateCommand() {}

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status: 0 done, 2 bad options, 1 failed. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Plan plan;
    try {
      plan = Plan.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("simulate: " + e.getMessage());
      err.println("Run ./anteroom simulate --help for the options.");
      return 2;
    } catch (IOException e) {
      err.println("simulate: cannot read the recording: " + e.getMessage());
      return 2;
    }
    if (plan == null) {
      out.print(USAGE);
      return 0;
    }
    try {
      List<Outcome> runs = simulate(plan, out);
      out.println();
      out.print(Report.summary(runs));
      for (Outcome run : runs) {
        out.println();
        out.print(Report.overTime(run));
      }
      Charts.write(plan.chart(), plan.arrivals().source(), runs);
      out.println();
      out.println("Chart: " + plan.chart().toAbsolutePath());
      return 0;
    } catch (IllegalStateException | IOException e) {
      err.println("simulate: " + e.getMessage());
      return 1;
    }
  }

  /** Runs every setting of {@code plan} on a redis-server started for it. */
  static List<Outcome> simulate(Plan plan, PrintStream out) {
    out.printf(
        "Arrivals: %s, %s people over %s%n",
        plan.arrivals().source(),
        Report.count(plan.arrivals().size()),
        Report.duration(plan.arrivals().span() / 1000.0));
    out.println("Visitors: " + plan.behaviour());
    try (RedisServer redis = RedisServer.start()) {
      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        Simulation simulation = new Simulation(connection.async());
        List<Outcome> runs = new ArrayList<>();
        for (Map.Entry<String, RoomPolicy> setting : plan.settings().entrySet()) {
          long started = System.nanoTime();
          Outcome run =
              simulation.run(
                  setting.getKey(),
                  setting.getValue(),
                  plan.arrivals(),
                  plan.behaviour(),
                  plan.seed());
          out.printf(
              "Simulated %s in %.1f s%n", setting.getKey(), (System.nanoTime() - started) / 1e9);
          runs.add(run);
        }
        return runs;
      } finally {
        client.shutdown();
      }
    }
  }

  /**
   * What to simulate.
   *
   * @param settings each run's label and policy, in order
   */
  record Plan(
      Arrivals arrivals,
      Map<String, RoomPolicy> settings,
      Behaviour behaviour,
      Path chart,
      long seed) {

    /**
     * @return null when help was asked for
     * @throws IllegalArgumentException naming the option or setting at fault
     */
    static Plan parse(String[] args) throws IOException {
      List<String> profiles = new ArrayList<>();
      Path recording = null;
      Map<String, String> values = new LinkedHashMap<>();
      String compare = null;
      Spread session = Behaviour.DEFAULT.session();
      Spread patience = Behaviour.DEFAULT.patience();
      boolean release = false;
      Path chart = Path.of("simulation.png");
      long seed = 1;
      for (int i = 0; i < args.length; i++) {
        String option = args[i];
        switch (option) {
          case "--help", "-h", "help" -> {
            return null;
          }
          case "--release" -> release = true;
          case "--arrivals" -> profiles.add(value(args, ++i, option));
          case "--recording" -> recording = Path.of(value(args, ++i, option));
          case "--set" -> {
            String[] pair = pair(option, value(args, ++i, option));
            values.put(pair[0], pair[1]);
          }
          case "--compare" -> compare = value(args, ++i, option);
          case "--session" -> session = Spread.parse(option, value(args, ++i, option));
          case "--patience" -> patience = Spread.parse(option, value(args, ++i, option));
          case "--chart" -> chart = chart(value(args, ++i, option));
          case "--seed" -> seed = seed(value(args, ++i, option));
          default -> throw new IllegalArgumentException("unknown option " + option);
        }
      }
      SplittableRandom random = new SplittableRandom(seed);
      List<Arrivals> parts = new ArrayList<>();
      for (String profile : profiles) {
        parts.add(Arrivals.profile(profile, random));
      }
      if (recording != null) {
        parts.add(Recording.read(recording));
      }
      if (parts.isEmpty()) {
        throw new IllegalArgumentException("say who arrives: --arrivals or --recording");
      }
      Arrivals arrivals = Arrivals.merge(parts);
      if (arrivals.size() == 0) {
        throw new IllegalArgumentException("nobody arrives in " + arrivals.source());
      }
      return new Plan(
          arrivals,
          settings(values, compare),
          new Behaviour(session, patience, release),
          chart,
          seed);
    }

    /** One policy per compared value, labelled by it; one labelled by the settings otherwise. */
    private static Map<String, RoomPolicy> settings(Map<String, String> values, String compare) {
      Map<String, RoomPolicy> settings = new LinkedHashMap<>();
      if (compare == null) {
        settings.put(label(values), policy("--set", values));
        return settings;
      }
      String[] pair = pair("--compare", compare);
      String[] choices = pair[1].split(",");
      for (String choice : choices) {
        if (choice.isBlank()) {
          throw new IllegalArgumentException("--compare " + compare + ": an empty value");
        }
        Map<String, String> run = new LinkedHashMap<>(values);
        run.put(pair[0], choice.strip());
        String label = pair[0] + "=" + choice.strip();
        if (settings.put(label, policy("--compare", run)) != null) {
          throw new IllegalArgumentException("--compare " + compare + ": " + label + " twice");
        }
      }
      return settings;
    }

    private static String label(Map<String, String> values) {
      if (values.isEmpty()) {
        return "defaults";
      }
      StringBuilder label = new StringBuilder();
      values.forEach(
          (k, v) -> label.append(label.isEmpty() ? "" : " ").append(k).append('=').append(v));
      return label.toString();
    }

    /** The room's policy for the values; settings the simulator does not model are refused. */
    private static RoomPolicy policy(String option, Map<String, String> values) {
      RoomPolicy policy;
      try {
        policy = PolicyParser.apply(option, RoomPolicy.DEFAULTS, values);
      } catch (InvalidPolicyException e) {
        // PolicyParser names a setting source.name; here the source is the option.
        throw new IllegalArgumentException(
            String.join("; ", e.problems()).replace(option + ".", option + " "), e);
      }
      for (PolicyProperty unmodelled :
          List.of(
              PolicyProperty.TOTAL_ACTIVE_USERS,
              PolicyProperty.NEW_USERS_PER_MINUTE,
              PolicyProperty.AUTOPILOT,
              PolicyProperty.PROOF_OF_WORK)) {
        if (values.containsKey(unmodelled.key())) {
          throw new IllegalArgumentException(
              option
                  + " "
                  + unmodelled.key()
                  + ": not simulated (room-wide limits, the auto-pilot"
                  + " and proof of work are not)");
        }
      }
      if (!policy.mode().admits() || policy.admitPerSecond() <= 0) {
        throw new IllegalArgumentException(
            option
                + ": nobody would be admitted (mode "
                + policy.mode().value()
                + ", admit-per-second "
                + policy.admitPerSecond()
                + ")");
      }
      return policy;
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length || args[i].startsWith("--")) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }

    private static String[] pair(String option, String text) {
      int eq = text.indexOf('=');
      if (eq <= 0 || eq == text.length() - 1) {
        throw new IllegalArgumentException(option + " " + text + ": write NAME=VALUE");
      }
      return new String[] {text.substring(0, eq).strip(), text.substring(eq + 1).strip()};
    }

    private static Path chart(String file) {
      if (!file.toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
        throw new IllegalArgumentException(
            "--chart " + file + ": the chart is a PNG; name it .png");
      }
      return Path.of(file);
    }

    private static long seed(String text) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--seed " + text + ": a whole number");
      }
    }
  }
}
