package io.anteroom.queue.script;

/** The scripts of the queue model, one per operation, loaded once. */
public final class QueueScripts {

  public static final LuaScript ENQUEUE = LuaScript.load("enqueue.lua");
  public static final LuaScript JOIN = LuaScript.load("join.lua");
  public static final LuaScript STATUS = LuaScript.load("status.lua");
  public static final LuaScript ADMIT = LuaScript.load("admit.lua");
  public static final LuaScript ROOM_ADMIT = LuaScript.load("room_admit.lua");
  public static final LuaScript ROOM_TOTALS = LuaScript.load("room_totals.lua");
  public static final LuaScript ENTER = LuaScript.load("enter.lua");
  public static final LuaScript EXPIRE = LuaScript.load("expire.lua");
  public static final LuaScript TOUCH = LuaScript.load("touch.lua");
  public static final LuaScript REGISTER = LuaScript.load("register.lua");
  public static final LuaScript RELEASE = LuaScript.load("release.lua");
  public static final LuaScript REENTER = LuaScript.load("reenter.lua");
  public static final LuaScript DEACTIVATE = LuaScript.load("deactivate.lua");
  public static final LuaScript ACTIVE_READ = LuaScript.load("active_read.lua");
  public static final LuaScript ACTIVE_SET = LuaScript.load("active_set.lua");
  public static final LuaScript REASSERT = LuaScript.load("reassert.lua");
  public static final LuaScript REBORN = LuaScript.load("reborn.lua");
  public static final LuaScript RESTORE = LuaScript.load("restore.lua");
  public static final LuaScript HITS = LuaScript.load("hits.lua");
  public static final LuaScript SETTLE = LuaScript.load("settle.lua");
  public static final LuaScript CLEAR = LuaScript.load("clear.lua");
  public static final LuaScript SWEEP = LuaScript.load("sweep.lua");
  public static final LuaScript SETTINGS = LuaScript.load("settings.lua");
  public static final LuaScript HISTORY = LuaScript.load("history.lua");
  public static final LuaScript CLAIM = LuaScript.load("claim.lua");
  public static final LuaScript LIMIT = LuaScript.load("limit.lua");
  public static final LuaScript IDLE = LuaScript.load("idle.lua");
  public static final LuaScript FORGET = LuaScript.load("forget.lua");
  public static final LuaScript MEASURED_RATE = LuaScript.load("measured_rate.lua");
  public static final LuaScript ORIGIN_REPORT = LuaScript.load("origin_report.lua");
  public static final LuaScript PILOT = LuaScript.load("pilot.lua");
  public static final LuaScript PILOT_STEP = LuaScript.load("pilot_step.lua");
  public static final LuaScript ARRIVALS = LuaScript.load("arrivals.lua");
  public static final LuaScript SHADOW_WAITS = LuaScript.load("shadow_waits.lua");

  private QueueScripts() {}
}
