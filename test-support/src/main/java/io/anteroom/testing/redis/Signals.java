package io.anteroom.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Freezes and thaws a process with SIGSTOP and SIGCONT; Java's Process API only offers SIGTERM and
 * SIGKILL. Each call returns once the process has reached the new state, so a caller can rely on it
 * at once.
 */
final class Signals {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final long POLL_MILLIS = 5;

  private Signals() {}

  static void stop(long pid) {
    send("-STOP", pid);
    awaitStopped(pid, true);
  }

  static void resume(long pid) {
    send("-CONT", pid);
    awaitStopped(pid, false);
  }

  private static void send(String signal, long pid) {
    try {
      Process kill =
          new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true).start();
      if (!kill.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        kill.destroyForcibly();
        throw new IllegalStateException("kill " + signal + " " + pid + " did not finish");
      }
      if (kill.exitValue() != 0) {
        String output = new String(kill.getInputStream().readAllBytes()).strip();
        throw new IllegalStateException("kill " + signal + " " + pid + " failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill " + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + pid, e);
    }
  }

  // The signal is delivered asynchronously; /proc shows when it took effect. Where there is no
  // /proc, the caller gets the signal's usual near-immediate effect without the check.
  private static void awaitStopped(long pid, boolean stopped) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try {
      while (isStopped(stat) != stopped) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "process " + pid + (stopped ? " did not stop" : " did not continue"));
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (NoSuchFileException noProc) {
      // Not Linux, or the process is gone; nothing left to wait for.
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + stat, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + pid, e);
    }
  }

  // The state letter follows the command name, which is in parentheses and may contain spaces.
  private static boolean isStopped(Path stat) throws IOException {
    String line = Files.readString(stat);
    char state = line.charAt(line.lastIndexOf(')') + 2);
    return state == 'T';
  }
}
