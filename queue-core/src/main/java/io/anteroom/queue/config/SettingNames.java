package io.anteroom.queue.config;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The {@code anteroom.*} keys one app reads, taken from its {@code @ConfigurationProperties}
 * records, so that a key nothing reads (a typo, a setting under the wrong section) is found instead
 * of being ignored. Maps and lists are open: what is under {@code rooms}, {@code defaults} or
 * {@code tokens.keys} is checked by the code that reads them. Both apps read the same file, so each
 * names the sections the other one reads ({@code anteroom.worker}, …) and leaves them alone.
 *
 * <p>Environment variables are not checked: relaxed binding reads {@code ANTEROOM_TOKEN_KEY} as
 * {@code anteroom.token.key}, yet it is a placeholder of the configuration file, not a setting.
 */
public final class SettingNames {

  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("anteroom");

  /** Known keys, each with whether what lies under it is left to its reader (maps, lists). */
  private final Map<ConfigurationPropertyName, Boolean> known;

  private final List<ConfigurationPropertyName> elsewhere;

  private SettingNames(
      Map<ConfigurationPropertyName, Boolean> known, List<ConfigurationPropertyName> elsewhere) {
    this.known = known;
    this.elsewhere = elsewhere;
  }

  /**
   * @param properties the app's records annotated with {@code @ConfigurationProperties}
   * @param elsewhere sections under {@code anteroom} that the other app reads, such as {@code
   *     anteroom.worker}
   */
  public static SettingNames of(Collection<Class<?>> properties, Collection<String> elsewhere) {
    Map<ConfigurationPropertyName, Boolean> known = new LinkedHashMap<>();
    for (Class<?> type : properties) {
      ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
      if (annotation == null) {
        throw new IllegalArgumentException(type + " is not @ConfigurationProperties");
      }
      String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
      addComponents(ConfigurationPropertyName.of(prefix), type, known);
    }
    return new SettingNames(
        Collections.unmodifiableMap(known),
        elsewhere.stream().map(ConfigurationPropertyName::of).toList());
  }

  private static void addComponents(
      ConfigurationPropertyName prefix,
      Class<?> type,
      Map<ConfigurationPropertyName, Boolean> known) {
    for (RecordComponent component : type.getRecordComponents()) {
      Name renamed = component.getAnnotation(Name.class);
      ConfigurationPropertyName name =
          prefix.append(
              renamed != null
                  ? renamed.value()
                  : DataObjectPropertyName.toDashedForm(component.getName()));
      Class<?> value = raw(component.getGenericType());
      if (value.isRecord()) {
        addComponents(name, value, known);
      } else {
        known.put(name, Map.class.isAssignableFrom(value) || isList(value));
      }
    }
  }

  private static Class<?> raw(Type type) {
    return type instanceof ParameterizedType parameterized
        ? (Class<?>) parameterized.getRawType()
        : (Class<?>) type;
  }

  private static boolean isList(Class<?> type) {
    return Collection.class.isAssignableFrom(type) || type.isArray();
  }

  /** Every known key, in the dashed form of the documentation. */
  public List<String> keys() {
    return known.keySet().stream().map(ConfigurationPropertyName::toString).sorted().toList();
  }

  /**
   * One line for each {@code anteroom.*} key of {@code environment} (except environment variables)
   * that this app does not read and leaves to no other app: {@code <key> is not a setting; did you
   * mean <nearest known key>? (<where it is set>)}. Empty when every key is known.
   */
  public List<String> unknown(Environment environment) {
    Map<String, String> problems = new LinkedHashMap<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (source instanceof IterableConfigurationPropertySource iterable
          && !(source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource)) {
        iterable.stream()
            .filter(ROOT::isAncestorOf)
            .forEach(
                name -> {
                  ConfigurationPropertyName key = withoutIndexes(name);
                  if (!isKnown(key)) {
                    problems.putIfAbsent(key.toString(), problem(key, source, name));
                  }
                });
      }
    }
    return List.copyOf(problems.values());
  }

  /** Whether {@code key} is read here, left to another app, or a section of known keys. */
  boolean isKnown(ConfigurationPropertyName key) {
    for (ConfigurationPropertyName other : elsewhere) {
      if (other.equals(key) || other.isAncestorOf(key)) {
        return true;
      }
    }
    for (Map.Entry<ConfigurationPropertyName, Boolean> entry : known.entrySet()) {
      ConfigurationPropertyName name = entry.getKey();
      if (name.equals(key)
          || key.isAncestorOf(name)
          || entry.getValue() && name.isAncestorOf(key)) {
        return true;
      }
    }
    return false;
  }

  private String problem(
      ConfigurationPropertyName key,
      ConfigurationPropertySource source,
      ConfigurationPropertyName name) {
    ConfigurationProperty property = source.getConfigurationProperty(name);
    Origin origin = property == null ? null : property.getOrigin();
    return key
        + " is not a setting; did you mean "
        + nearest(key)
        + "?"
        + (origin == null ? "" : " (" + origin + ")");
  }

  /**
   * The known key most like {@code key}: one of the same name in another section first (a setting
   * put under the wrong heading), else the fewest single-character edits away. A map, a list or the
   * other app's section counts with the rest of {@code key} after it, so {@code
   * anteroom.room.shop.item} is nearest to {@code anteroom.rooms.shop.item}.
   */
  String nearest(ConfigurationPropertyName key) {
    String last = key.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
    List<String> sameName = new ArrayList<>();
    List<String> candidates = new ArrayList<>();
    known.forEach(
        (name, open) -> {
          candidates.add(open ? withRestOf(key, name) : name.toString());
          if (name.getLastElement(ConfigurationPropertyName.Form.UNIFORM).equals(last)) {
            sameName.add(name.toString());
          }
        });
    elsewhere.forEach(section -> candidates.add(withRestOf(key, section)));
    String text = key.toString();
    List<String> pool = sameName.isEmpty() ? candidates : sameName;
    String best = pool.get(0);
    for (String candidate : pool) {
      if (distance(text, candidate) < distance(text, best)) {
        best = candidate;
      }
    }
    return best;
  }

  /** {@code open} followed by what {@code key} has beyond as many elements. */
  private static String withRestOf(ConfigurationPropertyName key, ConfigurationPropertyName open) {
    int depth = open.getNumberOfElements();
    return key.getNumberOfElements() > depth
        ? open.append(key.subName(depth)).toString()
        : open.toString();
  }

  private static ConfigurationPropertyName withoutIndexes(ConfigurationPropertyName name) {
    ConfigurationPropertyName key = name;
    while (key.getNumberOfElements() > 1 && key.isLastElementIndexed()) {
      key = key.getParent();
    }
    return key;
  }

  /** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int[] current = new int[b.length() + 1];
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      previous = current;
    }
    return previous[b.length()];
  }
}
