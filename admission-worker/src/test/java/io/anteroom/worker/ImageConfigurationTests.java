package io.anteroom.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.Yaml;

/**
 * Holds the Jib image configuration (this module's plugin entry over the root pom's
 * pluginManagement) to what the admission worker runs and reads. Surefire runs in the module
 * directory.
 */
class ImageConfigurationTests {

  private static JibSettings jib;
  private static Map<String, Object> application;

  @BeforeAll
  static void readBuildAndApplicationSettings() throws Exception {
    jib = JibSettings.read();
    try (Reader reader = Files.newBufferedReader(Path.of("src/main/resources/application.yml"))) {
      application = new Yaml().load(reader);
    }
  }

  @Test
  void imageStartsTheAdmissionWorkerApplication() {
    assertThat(jib.value("container/mainClass"))
        .isEqualTo(AdmissionWorkerApplication.class.getName());
  }

  @Test
  void imageRunsTheWorkerAsNonRootOnItsActuatorPort() {
    // Numeric, so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
    assertThat(jib.value("container/user")).matches("\\d+(:\\d+)?");
    String uid = jib.value("container/user").split(":")[0];
    assertThat(uid).isNotEqualTo("0").isNotEqualTo("root");

    Set<Integer> ports = new LinkedHashSet<>();
    for (String port : jib.values("container/ports/port")) {
      ports.add(Integer.valueOf(port.split("/")[0]));
    }
    // No management.server.port: the actuator is the worker's only server.
    assertThat(application)
        .extractingByKey("management")
        .asInstanceOf(MAP)
        .doesNotContainKey("server");
    assertThat(ports).containsExactly((Integer) setting("server.port"));
  }

  @Test
  void imageCarriesTheSharedConfigWhereAnteroomConfigPoints() {
    String from = jib.value("extraDirectories/paths/path/from");
    Path config = Path.of(from.replace("${project.basedir}", ".")).resolve("anteroom.yml");
    assertThat(config).isRegularFile();
    assertThat(jib.value("extraDirectories/paths/path/includes")).isEqualTo("anteroom.yml");

    String landsAt = jib.value("extraDirectories/paths/path/into") + "/anteroom.yml";
    assertThat(jib.value("container/environment/ANTEROOM_CONFIG")).isEqualTo(landsAt);
    assertThat((String) setting("spring.config.import")).contains("${ANTEROOM_CONFIG");
  }

  @Test
  void imageIsNamedAfterTheModule() {
    String image = jib.value("to/image");
    assertThat(image.substring(0, image.lastIndexOf(':'))).endsWith("/admission-worker");
  }

  @Test
  void defaultBuildNeverBuildsTheImage() {
    assertThat(jib.executions()).isZero();
  }

  private static Object setting(String dottedKey) {
    Object node = application;
    for (String key : dottedKey.split("\\.")) {
      node = ((Map<?, ?>) node).get(key);
    }
    assertThat(node).as(dottedKey).isNotNull();
    return node;
  }

  /** Jib's settings as Maven merges them here: the module's values win over the root's. */
  private record JibSettings(Node module, Node root) {

    private static final String JIB = "plugin[artifactId='jib-maven-plugin']";

    static JibSettings read() throws Exception {
      return new JibSettings(
          node(Path.of("pom.xml"), "/project/build/plugins/" + JIB),
          node(Path.of("../pom.xml"), "/project/build/pluginManagement/plugins/" + JIB));
    }

    String value(String path) {
      List<String> found = values(path);
      assertThat(found).as(path).hasSize(1);
      return found.get(0);
    }

    List<String> values(String path) {
      List<String> fromModule = texts(module, "configuration/" + path);
      return fromModule.isEmpty() ? texts(root, "configuration/" + path) : fromModule;
    }

    int executions() {
      return texts(module, "executions/execution").size()
          + texts(root, "executions/execution").size();
    }

    private static Node node(Path pom, String xpath) throws Exception {
      Node found =
          (Node)
              XPathFactory.newInstance()
                  .newXPath()
                  .evaluate(
                      xpath,
                      DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()),
                      XPathConstants.NODE);
      assertThat(found).as(pom + " " + xpath).isNotNull();
      return found;
    }

    private static List<String> texts(Node context, String xpath) {
      try {
        NodeList nodes =
            (NodeList)
                XPathFactory.newInstance()
                    .newXPath()
                    .evaluate(xpath, context, XPathConstants.NODESET);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
          texts.add(nodes.item(i).getTextContent().trim());
        }
        return texts;
      } catch (XPathExpressionException e) {
        throw new IllegalArgumentException(xpath, e);
      }
    }
  }
}
