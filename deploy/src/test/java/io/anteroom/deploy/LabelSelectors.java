package io.anteroom.deploy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.Map;

/** Kubernetes label-selector matching, as the API server does it. */
final class LabelSelectors {

  private LabelSelectors() {}

  /** Whether a plain selector ({@code Service.spec.selector}) selects {@code labels}. */
  static boolean matches(Map<String, String> selector, Map<String, String> labels) {
    return !selector.isEmpty() && labels.entrySet().containsAll(selector.entrySet());
  }

  /** Whether {@code selector} selects {@code labels}; an empty selector selects everything. */
  static boolean matches(LabelSelector selector, Map<String, String> labels) {
    Map<String, String> required = selector.getMatchLabels();
    if (required != null && !labels.entrySet().containsAll(required.entrySet())) {
      return false;
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
        if (!matches(requirement, labels)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    return switch (requirement.getOperator()) {
      case "In" -> value != null && requirement.getValues().contains(value);
      case "NotIn" -> value == null || !requirement.getValues().contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> throw new IllegalArgumentException("operator " + requirement.getOperator());
    };
  }
}
