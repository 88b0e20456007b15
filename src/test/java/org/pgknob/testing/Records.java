package org.pgknob.testing;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * A copy of a record with one component changed, for tests that alter one field of a recorded
 * summary or row: the record keeps one canonical constructor, and a test does not write its
 * eighteen arguments again to change one.
 */
public final class Records {
  private Records() {}

  /**
   * {@code record} with its component {@code component} set to {@code value}, every other as it
   * was; fails when the record has no such component.
   */
  public static <R extends Record> R with(R record, String component, Object value) {
    RecordComponent[] components = record.getClass().getRecordComponents();
    if (Arrays.stream(components).noneMatch(c -> c.getName().equals(component))) {
      throw new IllegalArgumentException(
          record.getClass().getSimpleName() + " has no component " + component);
    }
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        values[i] =
            components[i].getName().equals(component)
                ? value
                : components[i].getAccessor().invoke(record);
      }
      Constructor<?> canonical = record.getClass().getDeclaredConstructor(types);
      @SuppressWarnings("unchecked")
      R copy = (R) canonical.newInstance(values);
      return copy;
    } catch (NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException("cannot copy " + record.getClass().getSimpleName(), e);
    }
  }
}
