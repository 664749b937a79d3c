package io.anteroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.gateway.line.WaitingView;
import io.anteroom.queue.config.AnteroomProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A room's own pages and wording from its {@code templates} directory, checked at start-up. */
class RoomPagesTests {

  @TempDir Path dir;

  final WaitingView waiting = new WaitingView(WaitingView.State.WAITING, 4, 9, 30, 5, false);
  final WaitingView paused = new WaitingView(WaitingView.State.PAUSED, 4, 9, 0, 5, false);

  WaitingPage pages(Map<String, String> shop) {
    return WaitingPage.of(
        new AnteroomProperties("wr", null, Map.of(), Map.of("shop", shop, "other", Map.of())));
  }

  WaitingPage pagesOfDirectory() {
    return pages(Map.of("templates", dir.toString()));
  }

  void write(String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  @Test
  void everyPageTakesTheRoomsTemplateWithValuesEscaped() throws IOException {
    write("closed.html", "<main lang=\"{{lang}}\"><h1>Shut</h1><p>{{message}}</p></main>");
    write("unavailable.html", "<main><h1>Down</h1><p>{{retryAfterSeconds}} {{message}}</p></main>");
    write(
        "challenge.html",
        "<main><h1>Puzzle</h1><p data-c=\"{{challenge}}\">{{difficulty}}</p></main>");
    write("paused.html", "<main><h1>Held</h1><p>{{position}}</p></main>");
    WaitingPage pages = pagesOfDirectory();
    PageText ko = PageText.of("ko");

    assertThat(pages.renderClosed("shop", "<b>soon</b>", ko))
        .isEqualTo("<main lang=\"ko\"><h1>Shut</h1><p>&lt;b&gt;soon&lt;/b&gt;</p></main>");
    assertThat(pages.renderUnavailable("shop", 5, "a & b", ko))
        .isEqualTo("<main><h1>Down</h1><p>5 a &amp; b</p></main>");
    assertThat(pages.renderChallenge("shop", "x\"y", 12, null, ko))
        .isEqualTo("<main><h1>Puzzle</h1><p data-c=\"x&quot;y\">12</p></main>");
    assertThat(pages.render("shop", paused)).isEqualTo("<main><h1>Held</h1><p>4</p></main>");
    assertThat(pages.render("shop", waiting)).contains("id=\"position\"");
    assertThat(pages.renderClosed("other")).contains("<h1>This is closed</h1>");
  }

  @Test
  void thePausedStateUsesTheRoomsWaitingPageWithoutAPausedOne() throws IOException {
    write("waiting.html", "<main><h1>{{state}}</h1><p {{pausedHidden}}>paused</p></main>");

    assertThat(pagesOfDirectory().render("shop", paused))
        .isEqualTo("<main><h1>paused</h1><p >paused</p></main>");
  }

  @Test
  void anUnknownPlaceholderStopsStartUpNamingTheFileAndLine() throws IOException {
    write("closed.html", "<main>\n<h1>Shut</h1>\n<p>{{position}}</p>\n</main>");

    assertThatThrownBy(this::pagesOfDirectory)
        .hasMessageContaining("anteroom.rooms.shop.templates")
        .hasMessageContaining(dir.resolve("closed.html") + ":3: unknown placeholder {{position}}");
  }

  @Test
  void unbalancedMarkupStopsStartUpNamingTheFileAndLine() throws IOException {
    write("unavailable.html", "<main>\n<p>Down\n</main>");
    write("challenge.html", "<main>\n<section>\n<p>x</p>\n</main>\n</section>");
    write("paused.html", "<main><p>x</p>\n</div>");

    assertThatThrownBy(this::pagesOfDirectory)
        .hasMessageContaining(
            dir.resolve("unavailable.html") + ":3: </main> where <p> of line 2 is still open")
        .hasMessageContaining(
            dir.resolve("challenge.html") + ":4: </main> where <section> of line 2 is still open")
        .hasMessageContaining(
            dir.resolve("paused.html") + ":2: </div> where <main> of line 1 is still open");
  }

  @Test
  void voidElementsScriptsCommentsAndQuotedBracketsAreNotUnbalanced() throws IOException {
    write(
        "closed.html",
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>a < b</title>"
            + "<style>p > a { }</style></head>\n<body><!-- <div> --><br/><img alt=\"a > b\" src=x>"
            + "<script>if (1 < 2 && '</p>') {}</script><p>{{closed.title}}</p></body></html>");

    assertThat(pagesOfDirectory().renderClosed("shop")).contains("<p>This is closed</p>");
  }

  @Test
  void aTemplateNeverClosedStopsStartUp() throws IOException {
    write("closed.html", "<main>\n<p>x</p>\n");

    assertThatThrownBy(this::pagesOfDirectory)
        .hasMessageContaining(dir.resolve("closed.html") + ":1: <main> is never closed");
  }

  @Test
  void theBuiltInPagesPassTheSameChecks() {
    for (PageKind kind : PageKind.values()) {
      if (kind == PageKind.PAUSED) {
        continue;
      }
      assertThat(
              TemplateCheck.problems(
                  kind.file(),
                  read("/templates/" + kind.file()),
                  name ->
                      kind.placeholders().contains(name)
                          || PageText.english().all().containsKey(name)))
          .as(kind.file())
          .isEmpty();
    }
  }

  @Test
  void aRoomAddsALanguageWithEveryKey() throws IOException {
    String japanese =
        PageText.english().all().entrySet().stream()
            .map(
                e ->
                    e.getKey()
                        + "="
                        + (e.getKey().equals("closed.title") ? "終了しました" : e.getValue()))
            .collect(Collectors.joining("\n"));
    write("messages_ja.properties", japanese);
    WaitingPage pages = pagesOfDirectory();

    assertThat(pages.languages("shop")).containsExactlyInAnyOrder("en", "ko", "ja");
    assertThat(pages.languages("other")).containsExactlyInAnyOrder("en", "ko");
    PageText text = pages.text("shop", "ja-JP,ja;q=0.9");
    assertThat(text.language()).isEqualTo("ja");
    assertThat(pages.renderClosed("shop", null, text)).contains("lang=\"ja\"").contains("終了しました");
    assertThat(pages.text("other", "ja").language()).isEqualTo("en");
    assertThat(pages(Map.of("templates", dir.toString(), "language", "ja")).defaultLanguage("shop"))
        .isEqualTo("ja");
  }

  @Test
  void anAddedLanguageMissingKeysOrWithUnknownOnesStopsStartUp() throws IOException {
    write("messages_ja.properties", "closed.title=終了しました\nclosed.titel=x\n");

    assertThatThrownBy(this::pagesOfDirectory)
        .hasMessageContaining("messages_ja.properties: unknown keys [closed.titel]")
        .hasMessageContaining(
            "messages_ja.properties: a language the pages do not have needs every key")
        .hasMessageContaining("waiting.title");
  }

  @Test
  void aBuiltInLanguageCanChangeSomeStrings() throws IOException {
    write("messages_en.properties", "closed.title=Sold out\n");

    WaitingPage pages = pagesOfDirectory();

    assertThat(pages.renderClosed("shop")).contains("<h1>Sold out</h1>");
    assertThat(pages.renderClosed("other")).contains("<h1>This is closed</h1>");
  }

  @Test
  void aTemplatesOptionThatIsNoDirectoryStopsStartUp() {
    assertThatThrownBy(() -> pages(Map.of("templates", dir.resolve("none").toString())))
        .hasMessageContaining("anteroom.rooms.shop.templates")
        .hasMessageContaining("none");
  }

  private static String read(String path) {
    try (var in = RoomPagesTests.class.getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
