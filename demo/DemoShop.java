import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.anteroom.guard.GuardSettings;
import io.anteroom.guard.PassGuard;
import io.anteroom.guard.PassVerifier;
import io.anteroom.guard.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The origin of {@code ./anteroom demo}: a five-product shop served on 127.0.0.1 whose only
 * dependency is Anteroom's origin guard. Run it with {@code java -cp <origin guard jar>:<its
 * nimbus-jose-jwt jar> demo/DemoShop.java [port [jwks-url]]} (default port 8090), as {@code
 * ./anteroom demo} does.
 *
 * <p>Given the gateway's key set URL ({@code http://127.0.0.1:8080/_anteroom/jwks.json}), the shop
 * checks passes itself: product pages and purchases answer {@code 403} unless the request carries a
 * pass for that product in the {@code Anteroom-Pass} header, which only the gateway forwards (with
 * {@code anteroom.gateway.forward-pass-header=Anteroom-Pass} and passes signed asymmetrically), so
 * a visitor who goes around the line to the shop's own port is turned away. Without it, the shop
 * serves everyone.
 *
 * <p>{@code GET /} lists the products, {@code GET /products/{id}} shows one with a "Buy now" form,
 * and {@code POST /products/{id}/buy} thanks the buyer and answers {@code Anteroom-Release: true},
 * which tells the gateway to end the visitor's session at once and give the place to the next
 * person in line. Every page also answers HEAD.
 *
 * <p>{@code /_demo/origin} makes the shop slow or failing, to watch the room's auto-pilot follow:
 * {@code POST /_demo/origin?mode=healthy|slow|failing} (303 back to the page), and {@code GET}
 * shows the mode with a button for each. Slow: product pages and purchases take {@value
 * #SLOW_MILLIS} ms. Failing: every other one answers 503. The other pages stay as they are, so the
 * switch can always be turned back.
 */
public final class DemoShop {

  private static final int DEFAULT_PORT = 8090;
  private static final Pattern PRODUCT = Pattern.compile("/products/([^/]+)");
  private static final Pattern BUY = Pattern.compile("/products/([^/]+)/buy");
  private static final String ORIGIN = "/_demo/origin";
  private static final long SLOW_MILLIS = 1500;
  private static final String ROOM = "shop";

  /** Checks the passes of product pages; null when the shop serves everyone. */
  private static PassGuard guard;

  /** How the shop answers product pages and purchases now; set at {@link #ORIGIN}. */
  private static volatile Health health = Health.HEALTHY;

  /** Product pages and purchases answered so far, to fail every other one while failing. */
  private static final AtomicLong ANSWERED = new AtomicLong();

  private static final List<Product> PRODUCTS =
      List.of(
          new Product("1", "Limited-edition sneakers", "149.00", "The drop everyone is here for."),
          new Product("2", "Canvas tote bag", "24.00", "Heavy cotton, long handles."),
          new Product("3", "Enamel camping mug", "12.50", "Holds 350 ml; chips with character."),
          new Product("4", "Merino wool beanie", "29.00", "Warm, soft and never itchy."),
          new Product("5", "Dot-grid notebook set", "18.00", "Three A5 notebooks, 96 pages each."));

  private DemoShop() {}

  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_PORT;
    if (args.length > 1) {
      PassVerifier verifier = PassVerifier.builder().jwksUrl(URI.create(args[1])).build();
      guard =
          new PassGuard(
              verifier,
              GuardSettings.forbidding(ROOM, List.of("/products/{id}", "/products/{id}/**"))
                  // The room reads product ids as numbers (config/anteroom.yml): so does the guard.
                  .withItems(GuardSettings.ItemFormat.INTEGER, GuardSettings.ItemCase.SENSITIVE));
    }
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    // A plain pool: the shop runs on Java 17, without virtual threads.
    ExecutorService workers = Executors.newFixedThreadPool(16);
    server.setExecutor(workers);
    server.createContext("/", DemoShop::handle);
    server.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.stop(0);
                  workers.shutdownNow();
                }));
    System.out.println(
        "Demo shop listening on http://127.0.0.1:"
            + port
            + "/"
            + (guard == null
                ? ""
                : ", product pages only with a pass checked with the keys of " + args[1]));
  }

  private static void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      drain(exchange.getRequestBody());
      Verdict verdict = guard == null ? null : guard.decide(new ShopRequest(exchange));
      Page page =
          verdict != null && !verdict.allowed()
              ? refused(verdict)
              : route(
                  exchange.getRequestMethod(),
                  exchange.getRequestURI().getPath(),
                  exchange.getRequestURI().getQuery());
      send(exchange, page);
      System.out.printf(
          "%s %s -> %d%n",
          exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), page.status());
    } catch (RuntimeException e) {
      System.err.println("Failed to answer " + exchange.getRequestURI() + ": " + e);
      throw e;
    }
  }

  private static Page route(String method, String path, String query) {
    boolean read = method.equals("GET") || method.equals("HEAD");
    if (path.equals("/")) {
      return read ? index() : notAllowed("GET, HEAD");
    }
    if (path.equals(ORIGIN)) {
      if (method.equals("POST")) {
        return switchHealth(query);
      }
      return read ? originPage() : notAllowed("GET, HEAD, POST");
    }
    Matcher buy = BUY.matcher(path);
    if (buy.matches()) {
      Optional<Product> product = find(buy.group(1));
      if (product.isEmpty()) {
        return notFound();
      }
      return method.equals("POST") ? asHealthAllows(() -> thanks(product.get())) : notAllowed("POST");
    }
    Matcher product = PRODUCT.matcher(path);
    if (product.matches()) {
      Optional<Product> found = find(product.group(1));
      if (found.isEmpty()) {
        return notFound();
      }
      return read ? asHealthAllows(() -> product(found.get())) : notAllowed("GET, HEAD");
    }
    return notFound();
  }

  /** The page {@code answer} gives, late while slow, and every other time a 503 while failing. */
  private static Page asHealthAllows(Supplier<Page> answer) {
    Health now = health;
    if (now == Health.SLOW) {
      try {
        Thread.sleep(SLOW_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (now == Health.FAILING && ANSWERED.getAndIncrement() % 2 == 0) {
      return new Page(
          503,
          "Unavailable",
          "<h1>Unavailable</h1>\n<p>The shop is failing on purpose (<a href=\""
              + ORIGIN
              + "\">demo switch</a>).</p>",
          List.of());
    }
    return answer.get();
  }

  private static Page switchHealth(String query) {
    Optional<Health> chosen = Health.of(query == null ? "" : query);
    if (chosen.isEmpty()) {
      return new Page(
          400,
          "Bad request",
          "<h1>Bad request</h1>\n<p>Use <code>?mode=healthy</code>, <code>slow</code> or"
              + " <code>failing</code>.</p>",
          List.of());
    }
    health = chosen.get();
    System.out.println("Demo shop is now " + health.word);
    return new Page(303, "See other", "", List.of(new Header("Location", ORIGIN)));
  }

  private static Page originPage() {
    String buttons =
        Arrays.stream(Health.values())
            .map(
                h ->
                    """
                    <form method="post" action="%s?mode=%s">
                      <button type="submit">%s</button>
                      <span class="note">%s</span>
                    </form>"""
                        .formatted(
                            ORIGIN,
                            h.word,
                            h.label,
                            html(h.description)))
            .collect(Collectors.joining("\n"));
    String body =
        """
        <p><a href="/">&larr; The shop</a></p>
        <h1>Origin health</h1>
        <p>The shop is <strong id="health">%s</strong>.</p>
        <p class="note"><strong>A demo switch, open to anyone who reaches this page:</strong>         every visitor can make the shop slow or failing, and so slow the room's admissions down         for everyone. It exists to watch the auto-pilot; a real origin has nothing like it.</p>
        <div class="switch">
        %s
        </div>
        <p class="note">With the room's auto-pilot on (<code>./anteroom demo</code> turns it on), \
        the admission workers slow admissions down while the shop is slow or failing, and speed \
        them up again once it is healthy: watch the Auto-pilot panel of the admin page. It \
        decides on at least 10 answers to admitted visitors within 3 seconds. Open this page at \
        the gateway's address (<code>http://localhost:8080%s</code>) in a browser admitted to \
        product 1, then press "Browse busily": this page then loads product 1 eight at a time.</p>
        <button type="button" id="busy">Browse busily</button>
        <p class="note" id="busy-count" role="status"></p>
        <script>
          (function () {
            var running = false, answers = 0, failed = 0;
            var button = document.getElementById("busy");
            var count = document.getElementById("busy-count");
            function browse() {
              if (!running) { return; }
              fetch("/products/1", { cache: "no-store", redirect: "manual" })
                .then(function (response) {
                  answers++;
                  if (response.status >= 500) { failed++; }
                  count.textContent = answers + " product pages loaded, " + failed + " failed";
                }, function () {})
                .then(function () { setTimeout(browse, 200); });
            }
            button.addEventListener("click", function () {
              running = !running;
              button.textContent = running ? "Stop browsing" : "Browse busily";
              for (var i = 0; running && i < 8; i++) { browse(); }
            });
          })();
        </script>
        """
            .formatted(health.word, buttons, ORIGIN);
    return Page.ok("Origin health", body);
  }

  private static Page index() {
    String items =
        PRODUCTS.stream()
            .map(
                p ->
                    "<li><a href=\"/products/%s\"><span>%s</span><span class=\"price\">&euro;%s</span></a></li>"
                        .formatted(p.id(), html(p.name()), p.price()))
            .collect(Collectors.joining("\n"));
    String body =
        """
        <h1>Demo shop</h1>
        <ul class="products">
        %s
        </ul>
        <p class="note">In the demo, product 1 has its line turned on: a second visitor waits \
        in line. The other products pass straight through.</p>
        """
            .formatted(items);
    return Page.ok("Demo shop", body);
  }

  private static Page product(Product p) {
    String body =
        """
        <p><a href="/">&larr; All products</a></p>
        <h1>%s</h1>
        <p class="price big">&euro;%s</p>
        <p>%s</p>
        <form method="post" action="/products/%s/buy">
          <button type="submit">Buy now</button>
        </form>
        """
            .formatted(html(p.name()), p.price(), html(p.description()), p.id());
    return Page.ok(p.name(), body);
  }

  private static Page thanks(Product p) {
    String body =
        """
        <h1>Thank you!</h1>
        <p>Your order of <strong>%s</strong> (&euro;%s) is confirmed.</p>
        <p class="note">This page came with the response header <code>Anteroom-Release: true</code>. \
        It tells the gateway to end your session now and free your slot, so the next person \
        in line gets in sooner.</p>
        <p><a href="/">Back to the shop</a></p>
        """
            .formatted(html(p.name()), p.price());
    return new Page(200, "Thank you", body, List.of(new Header("Anteroom-Release", "true")));
  }

  /** A product page asked for without a valid pass: straight to the shop, around the line. */
  private static Page refused(Verdict verdict) {
    String body =
        """
        <h1>Forbidden</h1>
        <p>Product pages are served only through the waiting room: open this page at the \
        gateway's address (<code>http://localhost:8080</code>) instead of the shop's own port.</p>
        <p class="note">No valid Anteroom pass (%s).</p>
        <p><a href="/">Back to the shop</a></p>
        """
            .formatted(verdict.check().refusal().tag());
    return new Page(verdict.status(), "Forbidden", body, List.of());
  }

  private static Page notFound() {
    return new Page(
        404,
        "Not found",
        "<h1>Not found</h1>\n<p>There is no such page.</p>\n<p><a href=\"/\">Back to the shop</a></p>",
        List.of());
  }

  private static Page notAllowed(String allow) {
    return new Page(
        405,
        "Method not allowed",
        "<h1>Method not allowed</h1>\n<p><a href=\"/\">Back to the shop</a></p>",
        List.of(new Header("Allow", allow)));
  }

  private static Optional<Product> find(String id) {
    return PRODUCTS.stream().filter(p -> p.id().equals(id)).findFirst();
  }

  private static void send(HttpExchange exchange, Page page) throws IOException {
    byte[] bytes = document(page).getBytes(StandardCharsets.UTF_8);
    var headers = exchange.getResponseHeaders();
    headers.set("Content-Type", "text/html; charset=utf-8");
    headers.set("Cache-Control", "no-store");
    page.headers().forEach(h -> headers.set(h.name(), h.value()));
    if (exchange.getRequestMethod().equals("HEAD")) {
      // HEAD carries the length a GET would have, and no body.
      headers.set("Content-Length", Integer.toString(bytes.length));
      exchange.sendResponseHeaders(page.status(), -1);
      return;
    }
    exchange.sendResponseHeaders(page.status(), bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String document(Page page) {
    return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>%s</title>
        <style>
          :root { color-scheme: light dark; --accent: #2f6fde; }
          body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
          main { max-width: 36rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
          h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
          a { color: var(--accent); }
          .products { list-style: none; padding: 0; margin: 0; }
          .products a { display: flex; justify-content: space-between; gap: 1rem;
            padding: 0.9rem 1rem; margin-bottom: 0.5rem; border: 1px solid #8884;
            border-radius: 0.6rem; text-decoration: none; color: inherit; }
          .products a:hover { border-color: var(--accent); }
          .price { font-variant-numeric: tabular-nums; white-space: nowrap; }
          .big { font-size: 1.4rem; font-weight: 600; }
          button { font: inherit; font-weight: 600; color: #fff; background: var(--accent);
            border: 0; border-radius: 0.6rem; padding: 0.75rem 1.5rem; cursor: pointer;
            width: 100%%; max-width: 20rem; }
          .note { font-size: 0.9rem; opacity: 0.75; }
          .switch form { display: flex; gap: 0.75rem; align-items: center; margin: 0.5rem 0; }
          .switch button { width: 8rem; flex: none; padding: 0.5rem 1rem; }
          code { font-size: 0.9em; }
        </style>
        </head>
        <body>
        <main>
        %s
        </main>
        </body>
        </html>
        """
        .formatted(html(page.title()), page.body());
  }

  private static String html(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static void drain(InputStream body) throws IOException {
    try (body) {
      body.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** How the shop answers product pages and purchases. */
  private enum Health {
    HEALTHY("healthy", "Healthy", "answers at once"),
    SLOW("slow", "Slow", "product pages take 1.5 s"),
    FAILING("failing", "Failing", "every other product page answers 503");

    final String word;
    final String label;
    final String description;

    Health(String word, String label, String description) {
      this.word = word;
      this.label = label;
      this.description = description;
    }

    /** The health a query string's {@code mode=} names. */
    static Optional<Health> of(String query) {
      for (String pair : query.split("&")) {
        for (Health h : values()) {
          if (pair.equals("mode=" + h.word)) {
            return Optional.of(h);
          }
        }
      }
      return Optional.empty();
    }
  }

  private record Product(String id, String name, String price, String description) {}

  /** What the guard reads of a request: the pass comes in a header, never a cookie here. */
  private record ShopRequest(HttpExchange exchange) implements PassGuard.Request {
    @Override
    public String path() {
      return exchange.getRequestURI().getRawPath();
    }

    @Override
    public String pathAndQuery() {
      return exchange.getRequestURI().getRawPath();
    }

    @Override
    public String header(String name) {
      return exchange.getRequestHeaders().getFirst(name);
    }

    @Override
    public String cookie(String name) {
      return null;
    }
  }

  private record Header(String name, String value) {}

  private record Page(int status, String title, String body, List<Header> headers) {
    static Page ok(String title, String body) {
      return new Page(200, title, body, List.of());
    }
  }
}
