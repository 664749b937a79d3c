package io.anteroom.queue.policy;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Policy values that are one of a few words; the word is the constant's name in kebab case. */
public interface Choice {

  String name();

  /** The word operators write. */
  default String value() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The constant written as {@code text}, or an error listing the words that are accepted. */
  static <E extends Enum<E> & Choice> E parse(Class<E> type, String text) {
    for (E constant : type.getEnumConstants()) {
      if (constant.value().equals(text)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        "must be one of "
            + Arrays.stream(type.getEnumConstants())
                .map(Choice::value)
                .collect(Collectors.joining(", "))
            + "; was '"
            + text
            + "'");
  }
}
