package io.anteroom.simulator;

/**
 * How simulated visitors behave.
 *
 * @param session how long an admitted visitor keeps using the site (requests with their pass)
 * @param patience how long a visitor keeps the waiting page open before giving up; {@link
 *     Spread#NEVER} for a line nobody leaves
 * @param release whether the origin ends each session when its visitor leaves ({@code
 *     Anteroom-Release: true}); otherwise a session ends once idle for the room's session-duration
 */
public record Behaviour(Spread session, Spread patience, boolean release) {

  public static final Behaviour DEFAULT =
      new Behaviour(Spread.parse("--session", "exp:5m"), Spread.NEVER, false);

  @Override
  public String toString() {
    return "session "
        + session
        + ", patience "
        + patience
        + (release ? ", the origin releases each session" : ", sessions idle out");
  }
}
