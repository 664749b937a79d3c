package io.anteroom.guard;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The pages of the test shops, Spring MVC and WebFlux alike: product pages that read the id as a
 * number, as many shops do, and a home page nobody guards.
 */
@RestController
class ProductPages {

  /** What the product handler answers for product {@code id}. */
  static RawHttp.Response page(long id) {
    return new RawHttp.Response(200, "product " + id);
  }

  /** Whether the product handler answered. */
  static boolean served(RawHttp.Response response) {
    return response.status() == 200 && response.body().startsWith("product ");
  }

  @GetMapping("/products/{id}")
  String product(@PathVariable("id") long id) {
    return "product " + id;
  }

  @GetMapping("/products/{id}/**")
  String below(@PathVariable("id") long id) {
    return "product " + id;
  }

  @GetMapping("/")
  String home() {
    return "home";
  }
}
