package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * One visitor's browser: Debian's headless Chromium driven through Debian's ChromeDriver, with a
 * fresh profile (so fresh cookies) that is deleted on close. Both paths are given to Selenium, so
 * Selenium Manager never runs and nothing is downloaded.
 */
final class HeadlessChromium implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  static final Dimension DESKTOP = new Dimension(1280, 900);
  static final Dimension MOBILE = new Dimension(360, 800);

  /** Under the module's target directory; surefire runs with the module as working directory. */
  static final Path SCREENSHOTS =
      Path.of(System.getProperty("basedir", "."), "target", "screenshots");

  private final Path profile;
  private final ChromeDriver driver;

  private HeadlessChromium(boolean javaScript) {
    this(javaScript, null);
  }

  /**
   * @param language the browser's language, sent as {@code Accept-Language}; null for the default
   */
  private HeadlessChromium(boolean javaScript, String language) {
    requireExecutable(CHROMIUM);
    requireExecutable(CHROMEDRIVER);
    try {
      this.profile = Files.createTempDirectory("anteroom-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile,
        "--window-size=" + DESKTOP.getWidth() + "," + DESKTOP.getHeight());
    Map<String, Object> prefs = new java.util.HashMap<>();
    if (!javaScript) {
      prefs.put("profile.managed_default_content_settings.javascript", 2);
    }
    if (language != null) {
      options.addArguments("--lang=" + language);
      prefs.put("intl.accept_languages", language);
    }
    if (!prefs.isEmpty()) {
      options.setExperimentalOption("prefs", prefs);
    }
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    try {
      this.driver = new ChromeDriver(service, options);
    } catch (RuntimeException e) {
      deleteProfile();
      throw e;
    }
  }

  /** A browser with JavaScript on, as most visitors have. */
  static HeadlessChromium start() {
    return new HeadlessChromium(true);
  }

  /** A browser with JavaScript on whose language is {@code language}, e.g. {@code ko}. */
  static HeadlessChromium inLanguage(String language) {
    return new HeadlessChromium(true, language);
  }

  /** A browser that runs no page script at all. */
  static HeadlessChromium withoutJavaScript() {
    return new HeadlessChromium(false);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Resizes the window, e.g. to {@link #DESKTOP} or {@link #MOBILE}. */
  HeadlessChromium size(Dimension size) {
    driver.manage().window().setSize(size);
    return this;
  }

  /** Saves what the current tab shows as {@code target/screenshots/<name>.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      deleteProfile();
    }
  }

  private static void requireExecutable(Path path) {
    assertThat(Files.isExecutable(path))
        .withFailMessage(
            "%s is missing: browser tests need Debian's chromium and chromium-driver packages"
                + " (apt-get install chromium chromium-driver; ./anteroom test installs them)",
            path)
        .isTrue();
  }

  private void deleteProfile() {
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
