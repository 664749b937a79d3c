package io.anteroom.queue.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Lua script read once from this package's {@code scripts/} resources, with its SHA-1 for {@code
 * EVALSHA}. A line {@code --@include name.lua} is replaced by that file, so helpers shared by
 * several scripts live in one place. {@code clock.lua}, included by every script that takes the
 * caller's now, bounds that now by Redis's own clock; {@link #onCallersClock()} is the same script
 * with {@code clock_virtual.lua} in its place, for a virtual clock.
 *
 * @param name the file name, for logs
 * @param source the expanded source sent with {@code EVAL} when the server lacks the script
 * @param sha the SHA-1 of {@code source}, as Redis computes it
 */
public record LuaScript(String name, String source, String sha) {

  private static final Pattern INCLUDE = Pattern.compile("(?m)^--@include ([a-z_]+\\.lua)$");
  private static final String CLOCK = "clock.lua";
  private static final String VIRTUAL_CLOCK = "clock_virtual.lua";
  private static final Map<String, LuaScript> ON_CALLERS_CLOCK = new ConcurrentHashMap<>();

  /** Loads {@code io/anteroom/queue/scripts/<name>} from the class path. */
  public static LuaScript load(String name) {
    return load(name, CLOCK);
  }

  private static LuaScript load(String name, String clock) {
    String source = expand(read(name), clock);
    return new LuaScript(name, source, sha1(source));
  }

  /**
   * This script taking the caller's now as it is, never bounded by Redis's clock: only for a clock
   * moved by hand (tests, the simulator, benches), chosen by {@link ScriptRunner}. The same as this
   * script when it takes no now.
   */
  public LuaScript onCallersClock() {
    return ON_CALLERS_CLOCK.computeIfAbsent(name, n -> load(n, VIRTUAL_CLOCK));
  }

  /** Whether {@code sha} names this script, on Redis's clock or on the caller's. */
  public boolean isSha(String sha) {
    return sha.equals(this.sha) || sha.equals(onCallersClock().sha());
  }

  private static String expand(String source, String clock) {
    Matcher include = INCLUDE.matcher(source);
    StringBuilder out = new StringBuilder();
    while (include.find()) {
      String file = include.group(1).equals(CLOCK) ? clock : include.group(1);
      include.appendReplacement(out, Matcher.quoteReplacement(read(file)));
    }
    return include.appendTail(out).toString();
  }

  private static String read(String name) {
    String path = "/io/anteroom/queue/scripts/" + name;
    try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing script resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  private static String sha1(String source) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }
}
