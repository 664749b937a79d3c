package io.anteroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.line.WaitingView;
import org.junit.jupiter.api.Test;

class WaitingPageTests {

  final WaitingPage page = new WaitingPage();

  @Test
  void rendersThePlaceWithoutExternalResources() {
    String html =
        page.render("shop", new WaitingView(WaitingView.State.WAITING, 42, 100, 300, 7, false));

    assertThat(html)
        .contains(">42<", ">100<", "about 5 minutes", "content=\"7\"", "aria-live=\"polite\"")
        .doesNotContain("{{", "http://", "https://")
        .contains("id=\"requeued\" hidden");
  }

  @Test
  void tellsARequeuedVisitorWhatHappened() {
    String html = page.render("shop", new WaitingView(WaitingView.State.WAITING, 5, 5, 5, 2, true));

    assertThat(html).contains("id=\"requeued\" >").contains("joined the line again");
  }

  @Test
  void unavailablePageLoadsItsUrlAgainAfterRetryAfter() {
    String html = page.renderUnavailable("shop", 5);

    assertThat(html)
        .contains("Temporarily unavailable", "http-equiv=\"refresh\" content=\"5\"")
        .contains("data-room=\"shop\"")
        .doesNotContain("{{", "http://", "https://", "<script");
  }

  @Test
  void showsThePreQueueStateAndTheCountdown() {
    WaitingView view = new WaitingView(WaitingView.State.PRE_QUEUE, 3, 9, 125, 5, false, 120);

    String html = page.render("shop", view);

    assertThat(html)
        .contains("<span id=\"state\" hidden>pre-queue</span>", "<span id=\"startsIn\">120</span>")
        .doesNotContain("id=\"prequeue\" hidden");
    assertThat(view.toJson())
        .isEqualTo(
            "{\"state\":\"pre-queue\",\"position\":3,\"waiting\":9,\"etaSeconds\":125,"
                + "\"etaMinSeconds\":125,\"etaMaxSeconds\":125,\"pollAfterSeconds\":5,\"requeued\":false,\"admitted\":false,\"startsInSeconds\":120}");
    assertThat(page.render("shop", new WaitingView(WaitingView.State.WAITING, 1, 1, 1, 1, false)))
        .contains("id=\"prequeue\" hidden");
  }

  @Test
  void valuesAreEscaped() {
    assertThat(WaitingPage.escape("<script>\"x\"&'y'</script>"))
        .isEqualTo("&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;");
  }
}
