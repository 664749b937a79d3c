package io.anteroom.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark's {@code --name value} options. The usage line names every option with its default,
 * as in {@code [--rounds 5]}, and is the one place the defaults are written.
 */
public final class Args {

  private static final Pattern OPTION = Pattern.compile("\\[(--[a-z-]+) ([^]]+)]");

  private final Map<String, String> values = new HashMap<>();

  private Args(String usage, String... args) {
    Matcher option = OPTION.matcher(usage);
    while (option.find()) {
      values.put(option.group(1), option.group(2));
    }
    for (int i = 0; i < args.length; i += 2) {
      require(values.containsKey(args[i]) && i + 1 < args.length, "unknown option " + args[i]);
      values.put(args[i], args[i + 1]);
    }
  }

  /**
   * The settings {@code settings} makes of {@code args}; prints the usage and exits, with 0 for
   * {@code --help} and 2 for a wrong option or value.
   */
  public static <T> T parse(String usage, String[] args, Function<Args, T> settings) {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(usage);
      System.exit(0);
    }
    try {
      return settings.apply(new Args(usage, args));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage() + "\n" + usage);
      System.exit(2);
      throw e;
    }
  }

  /** The whole number given for {@code name}, at least {@code min}; commas and _ may group. */
  public int number(String name, int min) {
    String value = values.get(name).replace("_", "").replace(",", "");
    try {
      int number = Integer.parseInt(value);
      require(number >= min, name + " must be at least " + min);
      return number;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " needs a whole number, got " + value, e);
    }
  }

  public String text(String name) {
    return values.get(name);
  }

  /** How the run was started: the launcher script's command line. */
  public static String command() {
    return System.getProperty("bench.command", "java (without its launcher script)");
  }

  public static void require(boolean valid, String message) {
    if (!valid) {
      throw new IllegalArgumentException(message);
    }
  }
}
