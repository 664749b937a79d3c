package io.anteroom.queue.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Lua script read once from this package's {@code scripts/} resources, with its SHA-1 for {@code
 * EVALSHA}. A line {@code --@include name.lua} is replaced by that file, so helpers shared by
 * several scripts live in one place.
 *
 * @param name the file name, for logs
 * @param source the expanded source sent with {@code EVAL} when the server lacks the script
 * @param sha the SHA-1 of {@code source}, as Redis computes it
 */
public record LuaScript(String name, String source, String sha) {

  private static final Pattern INCLUDE = Pattern.compile("(?m)^--@include ([a-z_]+\\.lua)$");

  /** Loads {@code io/anteroom/queue/scripts/<name>} from the class path. */
  public static LuaScript load(String name) {
    String source = expand(read(name));
    return new LuaScript(name, source, sha1(source));
  }

  private static String expand(String source) {
    Matcher include = INCLUDE.matcher(source);
    StringBuilder out = new StringBuilder();
    while (include.find()) {
      include.appendReplacement(out, Matcher.quoteReplacement(read(include.group(1))));
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
