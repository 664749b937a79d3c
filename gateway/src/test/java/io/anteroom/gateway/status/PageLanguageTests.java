package io.anteroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.gateway.line.WaitingView;
import io.anteroom.queue.config.AnteroomProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageLanguageTests {

  final WaitingPage page = new WaitingPage();
  final WaitingView view = new WaitingView(WaitingView.State.WAITING, 42, 100, 300, 7, false);

  @Test
  void acceptLanguageChoosesTheBestSupportedLanguageByQValue() {
    assertThat(PageText.choose(null, "ko-KR,ko;q=0.9,en;q=0.8").language()).isEqualTo("ko");
    assertThat(PageText.choose(null, "en;q=0.5, ko;q=0.9").language()).isEqualTo("ko");
    assertThat(PageText.choose(null, "ko;q=0.2, en;q=0.9").language()).isEqualTo("en");
    assertThat(PageText.choose(null, "fr, ko;q=0.3").language()).isEqualTo("ko");
    assertThat(PageText.choose(null, "ko;q=0, fr").language()).isEqualTo("en");
    assertThat(PageText.choose(null, "fr-FR").language()).isEqualTo("en");
    assertThat(PageText.choose(null, null).language()).isEqualTo("en");
    assertThat(PageText.choose(null, ";;;q=x").language()).isEqualTo("en");
    assertThat(PageText.choose("en", "ko").language()).isEqualTo("en");
  }

  @Test
  void koreanPageHasKoreanWordingAndLangAttribute() {
    String html = page.render("shop", view, null, PageText.of("ko"));

    assertThat(html)
        .contains("<html lang=\"ko\">", "대기열에 들어와 있습니다", "약 5분", "data-eta-many=\"약 {0}분\"")
        .doesNotContain("You are in line", "{{");
    assertThat(page.render("shop", view)).contains("<html lang=\"en\">", "You are in line");
  }

  @Test
  void everyPageHasTheSharedStylesheetAndNoPlaceholderLeft() {
    PageText ko = PageText.of("ko");
    for (String html :
        new String[] {
          page.render("shop", view, "hi", ko),
          page.renderClosed("shop", "hi", ko),
          page.renderUnavailable("shop", 5, null, ko),
          page.renderChallenge("shop", "abc", 8, null, ko),
          page.renderLimited("shop", "r", "limited.placesPerIp", 30, ko)
        }) {
      assertThat(html)
          .contains("<html lang=\"ko\">", "--accent:", "prefers-reduced-motion", "<main")
          .doesNotContain("{{", "http://", "https://", "<link");
    }
  }

  @Test
  void everyEnglishStringHasAKoreanOne() {
    assertThat(PageText.of("ko").all().keySet()).isEqualTo(PageText.english().all().keySet());
  }

  @Test
  void scriptWordsComeFromTheBundleAndLegacyEnglishWordsAreGone() {
    String html = page.render("shop", view, null, PageText.of("ko"));
    Matcher script = Pattern.compile("<script>(.*)</script>", Pattern.DOTALL).matcher(html);
    assertThat(script.find()).isTrue();
    assertThat(script.group(1)).doesNotContain("\"less than a minute\"", "\" minutes\"");
  }

  @Test
  void operatorMessageIsEscapedAndShownOnlyWhenSet() {
    String html = page.render("shop", view, "<b>Sale</b> & \"more\"", PageText.english());

    assertThat(html)
        .contains("&lt;b&gt;Sale&lt;/b&gt; &amp; &quot;more&quot;")
        .doesNotContain("<b>Sale")
        .contains("id=\"message\" aria-labelledby=\"message-title\" >");
    assertThat(page.render("shop", view))
        .contains("id=\"message\" aria-labelledby=\"message-title\" hidden");
    assertThat(WaitingResponses.withMessage("{\"state\":\"waiting\"}", "say \"hi\"\n<script>"))
        .isEqualTo(
            "{\"state\":\"waiting\",\"message\":\"say \\\"hi\\\"\\u000a\\u003cscript\\u003e\"}");
    assertThat(WaitingResponses.withMessage("{\"state\":\"waiting\"}", null))
        .isEqualTo("{\"state\":\"waiting\"}");
  }

  @Test
  void roomLanguageOptionFixesTheLanguage() {
    WaitingPage pages = WaitingPage.of(properties(Map.of("language", "ko")));

    assertThat(pages.text("shop", "en").language()).isEqualTo("ko");
    assertThat(pages.text("other", "en").language()).isEqualTo("en");
    assertThatThrownBy(() -> WaitingPage.of(properties(Map.of("language", "fr"))))
        .hasMessageContaining("anteroom.rooms.shop.language")
        .hasMessageContaining("fr");
  }

  @Test
  void roomTemplateIsFilledWithEscapedValues(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("shop.html");
    Files.writeString(
        file,
        "<html lang=\"{{lang}}\"><h1>{{waiting.title}}</h1><p>{{position}}</p><p>{{message}}</p>"
            + "</html>",
        StandardCharsets.UTF_8);
    WaitingPage pages = WaitingPage.of(properties(Map.of("template", file.toString())));

    assertThat(pages.render("shop", view, "<i>", PageText.of("ko")))
        .isEqualTo("<html lang=\"ko\"><h1>대기열에 들어와 있습니다</h1><p>42</p><p>&lt;i&gt;</p></html>");
    assertThat(pages.render("other", view)).contains("id=\"position\"");
  }

  @Test
  void badTemplateStopsStartUpNamingTheRoom(@TempDir Path dir) throws Exception {
    assertThatThrownBy(
            () ->
                WaitingPage.of(properties(Map.of("template", dir.resolve("none.html").toString()))))
        .hasMessageContaining("anteroom.rooms.shop.template")
        .hasMessageContaining("none.html");
    Path file = dir.resolve("bad.html");
    Files.writeString(file, "<p>{{position}} {{nope}} {{waiting.titel}}</p>");
    assertThatThrownBy(() -> WaitingPage.of(properties(Map.of("template", file.toString()))))
        .hasMessageContaining("anteroom.rooms.shop.template")
        .hasMessageContaining("nope")
        .hasMessageContaining("waiting.titel");
  }

  private static AnteroomProperties properties(Map<String, String> shop) {
    return new AnteroomProperties("wr", null, Map.of(), Map.of("shop", shop, "other", Map.of()));
  }
}
