package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.config.SettingNames;
import io.anteroom.worker.WorkerSettingNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * Both apps read one configuration file, so each must accept every key the other reads, and the
 * examples in the documentation must use keys that exist.
 */
class SettingNamesOfBothAppsTests {

  private static final List<SettingNames> APPS =
      List.of(GatewaySettingNames.NAMES, WorkerSettingNames.NAMES);

  private static final String ORIGIN_GUARD = "io.anteroom.guard.";

  private static final Pattern YAML_BLOCK =
      Pattern.compile("^( *)```ya?ml\\n(.*?)^ *```", Pattern.MULTILINE | Pattern.DOTALL);

  @Test
  void eachAppAcceptsEverySettingOfBothApps() throws ClassNotFoundException {
    ClassPathScanningCandidateComponentProvider scanner =
        new ClassPathScanningCandidateComponentProvider(false);
    scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
    Map<String, Object> everyKey = new LinkedHashMap<>();
    for (BeanDefinition found : scanner.findCandidateComponents("io.anteroom")) {
      if (found.getBeanClassName().startsWith(ORIGIN_GUARD)) {
        // The origin's own settings (origin-guard, on the test class path): not in this file.
        continue;
      }
      Class<?> type = Class.forName(found.getBeanClassName());
      SettingNames.of(List.of(type), List.of()).keys().forEach(key -> everyKey.put(key, "x"));
    }
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("all", everyKey));

    assertThat(everyKey)
        .containsKeys("anteroom.gateway.trusted-proxies", "anteroom.worker.tick", "anteroom.rooms");
    for (SettingNames app : APPS) {
      assertThat(app.unknown(environment)).isEmpty();
    }
  }

  @Test
  void everyAnteroomKeyInTheDocumentationIsASetting() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(Path.of("../README.md")));
    try (Stream<Path> docs = Files.list(Path.of("../docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    StandardEnvironment environment = new StandardEnvironment();
    int blocks = 0;
    for (Path document : documents) {
      Matcher block = YAML_BLOCK.matcher(Files.readString(document));
      while (block.find()) {
        String indent = block.group(1);
        String yaml = block.group(2).replaceAll("(?m)^" + indent, "");
        String name = document.getFileName() + " block " + ++blocks;
        for (PropertySource<?> source :
            new YamlPropertySourceLoader()
                .load(name, new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8), name))) {
          environment.getPropertySources().addLast(source);
        }
      }
    }

    assertThat(blocks).isGreaterThan(5);
    List<String> unknown = new ArrayList<>();
    APPS.forEach(app -> unknown.addAll(app.unknown(environment)));
    assertThat(unknown).isEmpty();
  }
}
