package io.anteroom.testing.build;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * A module's Jib plugin settings as Maven merges them: the module's {@code pom.xml} entry over the
 * root pom's {@code pluginManagement}, the module's values winning. Read from the module directory
 * (where Surefire runs).
 */
public final class JibSettings {

  private static final String JIB = "plugin[artifactId='jib-maven-plugin']";

  private final Node module;
  private final Node root;

  private JibSettings(Node module, Node root) {
    this.module = module;
    this.root = root;
  }

  /** Reads {@code ./pom.xml} and {@code ../pom.xml}. */
  public static JibSettings read() {
    return new JibSettings(
        node(Path.of("pom.xml"), "/project/build/plugins/" + JIB),
        node(Path.of("../pom.xml"), "/project/build/pluginManagement/plugins/" + JIB));
  }

  /** The one value at {@code path} under {@code configuration}. */
  public String value(String path) {
    List<String> found = values(path);
    if (found.size() != 1) {
      throw new IllegalStateException("expected one Jib setting " + path + ", found " + found);
    }
    return found.get(0);
  }

  /** Every value at {@code path} under {@code configuration}. */
  public List<String> values(String path) {
    List<String> fromModule = texts(module, "configuration/" + path);
    return fromModule.isEmpty() ? texts(root, "configuration/" + path) : fromModule;
  }

  /** Executions bound outside profiles; zero means the default build never runs Jib. */
  public int executions() {
    return texts(module, "executions/execution").size()
        + texts(root, "executions/execution").size();
  }

  private static Node node(Path pom, String xpath) {
    try {
      Node found =
          (Node)
              XPathFactory.newInstance()
                  .newXPath()
                  .evaluate(
                      xpath,
                      DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()),
                      XPathConstants.NODE);
      if (found == null) {
        throw new IllegalStateException(pom + " has no " + xpath);
      }
      return found;
    } catch (IllegalStateException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + pom, e);
    }
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
