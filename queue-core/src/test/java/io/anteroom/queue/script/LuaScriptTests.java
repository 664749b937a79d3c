package io.anteroom.queue.script;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LuaScriptTests {

  @Test
  void includesAreExpandedAndEveryScriptDocumentsItsContract() {
    for (LuaScript script :
        new LuaScript[] {
          QueueScripts.ENQUEUE,
          QueueScripts.STATUS,
          QueueScripts.ADMIT,
          QueueScripts.ROOM_ADMIT,
          QueueScripts.ROOM_TOTALS,
          QueueScripts.EXPIRE,
          QueueScripts.TOUCH,
          QueueScripts.RELEASE,
          QueueScripts.REENTER,
          QueueScripts.REGISTER,
          QueueScripts.DEACTIVATE,
          QueueScripts.HITS,
          QueueScripts.SETTLE
        }) {
      assertThat(script.source()).as(script.name()).contains("-- KEYS:", "-- ARGV:", "-- Reply:");
      assertThat(script.source()).as(script.name()).doesNotContain("--@include");
      assertThat(script.sha()).matches("[0-9a-f]{40}");
    }
    assertThat(QueueScripts.ADMIT.source()).contains("local function bucket_tokens");
  }

  @Test
  void theWindowSumOfHitsIsOneIncludeSharedByHitsAndSettle() {
    for (LuaScript script : new LuaScript[] {QueueScripts.HITS, QueueScripts.SETTLE}) {
      assertThat(script.source()).as(script.name()).contains("local function hits_in_window");
      assertThat(script.source()).as(script.name()).doesNotContain("--@include");
    }
  }

  @Test
  void theRoomsNewUsersAreOneIncludeSharedByEveryScriptThatStartsSessions() {
    for (LuaScript script :
        new LuaScript[] {
          QueueScripts.ADMIT,
          QueueScripts.ROOM_ADMIT,
          QueueScripts.ENQUEUE,
          QueueScripts.JOIN,
          QueueScripts.REGISTER,
          QueueScripts.ENTER,
          QueueScripts.ROOM_TOTALS
        }) {
      assertThat(script.source()).as(script.name()).contains("local function started_read");
    }
    assertThat(QueueScripts.TOUCH.source()).doesNotContain("started_count");
  }

  @Test
  void everyScriptThatTakesANowBoundsItByRedisClockAndOnlyTheVirtualVariantTakesItAsItIs() {
    for (LuaScript script :
        new LuaScript[] {
          QueueScripts.ENQUEUE,
          QueueScripts.JOIN,
          QueueScripts.ADMIT,
          QueueScripts.ROOM_ADMIT,
          QueueScripts.ENTER,
          QueueScripts.EXPIRE,
          QueueScripts.SWEEP,
          QueueScripts.TOUCH,
          QueueScripts.RELEASE,
          QueueScripts.PILOT_STEP
        }) {
      assertThat(script.source()).as(script.name()).contains("redis.call('TIME')", "call_now(");
      LuaScript virtual = script.onCallersClock();
      assertThat(virtual.source()).as(script.name()).doesNotContain("redis.call('TIME')");
      assertThat(virtual.source()).as(script.name()).contains("call_now(");
      assertThat(virtual.sha()).isNotEqualTo(script.sha());
      assertThat(script.onCallersClock()).isSameAs(virtual);
    }
    assertThat(QueueScripts.SETTINGS.onCallersClock().sha()).isEqualTo(QueueScripts.SETTINGS.sha());
  }
}
