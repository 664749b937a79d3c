package io.anteroom.deploy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Finds fields the Kubernetes model does not know. fabric8 keeps an unknown field (a misspelt
 * {@code readinesProbe}) in the object's additional properties instead of failing, so a typo would
 * otherwise parse fine and be dropped by the API server.
 */
final class UnknownFields {

  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

  private UnknownFields() {}

  /** The paths of every unknown field in {@code object}, empty when there is none. */
  static List<String> in(Object object) {
    List<String> found = new ArrayList<>();
    walk(object, object.getClass().getSimpleName(), found);
    return found;
  }

  private static void walk(Object value, String path, List<String> found) {
    if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        walk(item, path + "[" + i++ + "]", found);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((key, item) -> walk(item, path + "." + key, found));
      return;
    }
    if (value == null || !value.getClass().getPackageName().startsWith(MODEL_PACKAGE)) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (!isGetter(getter)) {
        continue;
      }
      Object child = invoke(getter, value);
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(key -> found.add(path + "." + key));
        }
      } else {
        walk(child, path + "." + property(getter), found);
      }
    }
  }

  private static boolean isGetter(Method method) {
    return method.getName().startsWith("get")
        && method.getParameterCount() == 0
        && !Modifier.isStatic(method.getModifiers())
        && !method.getName().equals("getClass");
  }

  private static String property(Method getter) {
    String name = getter.getName().substring(3);
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  private static Object invoke(Method getter, Object target) {
    try {
      return getter.invoke(target);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + getter, e);
    }
  }
}
