package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class RecordingTests {

  private static Arrivals read(String text) throws Exception {
    return Recording.read("arrivals.csv", new BufferedReader(new StringReader(text)));
  }

  @Test
  void rowsBecomeArrivalsFromTheFirstOne() throws Exception {
    Arrivals arrivals =
        read(
            """
            # anteroom arrivals room=shop sample=1 from=2026-12-04T15:00:00Z to=2026-12-04T15:10:00Z
            at_ms,item

            1764860400123,42
            1764860400150,_
            1764860401123,42
            """);
    assertThat(arrivals.at()).containsExactly(0, 27, 1000);
    assertThat(arrivals.items()).containsExactly("42", "_");
    assertThat(arrivals.item()).containsExactly(0, 1, 0);
  }

  @Test
  void aSampledRecordingStandsForTheWholeCrowd() throws Exception {
    Arrivals arrivals =
        read(
            """
            # anteroom arrivals room=shop sample=0.25
            at_ms,item
            1000,42
            1001,42
            """);
    assertThat(arrivals.size()).isEqualTo(8);
    assertThat(arrivals.at()).isSorted().containsExactly(0, 1, 1, 2, 2, 3, 3, 4);
    assertThat(arrivals.source()).contains("sample 0.25");
  }

  @Test
  void malformedRowsNameTheirLine() {
    assertThatThrownBy(() -> read("at_ms,item\n1000,42\nsoon,42\n"))
        .hasMessage("arrivals.csv line 3: at_ms is not a whole number of milliseconds: soon");
    assertThatThrownBy(() -> read("at_ms,item\n1000,42\n999,42\n"))
        .hasMessage("arrivals.csv line 3: rows must be in order of time; 999 follows 1000");
    assertThatThrownBy(() -> read("at_ms,item\n1000\n"))
        .hasMessage("arrivals.csv line 2: expected at_ms,item, found 1000");
    assertThatThrownBy(() -> read("at_ms,item\n1000,a b\n"))
        .hasMessage("arrivals.csv line 2: not an item id as keys spell it: a b");
    assertThatThrownBy(() -> read("at_ms,item\n-5,42\n"))
        .hasMessage("arrivals.csv line 2: at_ms cannot be negative: -5");
    assertThatThrownBy(() -> read("time,what\n1000,42\n"))
        .hasMessage("arrivals.csv line 1: expected the header at_ms,item, found time,what");
    assertThatThrownBy(() -> read("# sample=2\nat_ms,item\n"))
        .hasMessage("arrivals.csv line 1: sample must be above 0 and at most 1: 2");
    assertThatThrownBy(() -> read("# nothing\n"))
        .hasMessage("arrivals.csv: no at_ms,item header; not a recording");
  }
}
