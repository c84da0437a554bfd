package io.timelinearchive.lsm;

import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The columns of a history file: the fields of Hudi's {@code HoodieLSMTimelineInstant} record as
 * Parquet stores them (Avro's {@code ["null", "string"]} and {@code ["null", "bytes"]} as optional
 * binary columns, its {@code int} as an int32 one), and which of them a read asks for.
 */
final class LsmColumns {
  /** The {@code version} Hudi 1.0 writes, and the record's default. */
  static final int DEFAULT_VERSION = 1;

  enum Column {
    INSTANT_TIME("instantTime", PrimitiveTypeName.BINARY, true, false),
    COMPLETION_TIME("completionTime", PrimitiveTypeName.BINARY, true, false),
    ACTION("action", PrimitiveTypeName.BINARY, true, false),
    METADATA("metadata", PrimitiveTypeName.BINARY, false, true),
    PLAN("plan", PrimitiveTypeName.BINARY, false, true),
    VERSION("version", PrimitiveTypeName.INT32, false, false);

    private final String field;
    private final PrimitiveTypeName type;
    private final boolean required;
    private final boolean detail;

    Column(String field, PrimitiveTypeName type, boolean required, boolean detail) {
      this.field = field;
      this.type = type;
      this.required = required;
      this.detail = detail;
    }

    String field() {
      return field;
    }
  }

  /**
   * The columns to read, in the projection's order.
   *
   * @param schema the file's schema
   * @param details whether to read {@code metadata} and {@code plan}
   */
  record Projection(List<Column> columns, MessageType schema) {}

  private LsmColumns() {}

  /**
   * The projection of a file's schema to the columns wanted: every required one, the detail ones
   * when asked for, each where the file has it.
   *
   * @throws IllegalArgumentException naming the column if a required one is missing or a column has
   *     the wrong type
   */
  static Projection projection(MessageType schema, boolean details) {
    List<Column> columns = new ArrayList<>();
    List<Type> fields = new ArrayList<>();
    for (Column c : Column.values()) {
      if (c.detail && !details) {
        continue;
      }
      if (!schema.containsField(c.field)) {
        if (c.required) {
          throw new IllegalArgumentException("it has no column '" + c.field + "'");
        }
        continue;
      }
      Type field = schema.getType(c.field);
      if (!field.isPrimitive()
          || field.asPrimitiveType().getPrimitiveTypeName() != c.type
          || field.isRepetition(Type.Repetition.REPEATED)) {
        throw new IllegalArgumentException(
            "its column '" + c.field + "' is " + field + ", not a single " + c.type);
      }
      columns.add(c);
      fields.add(field);
    }
    return new Projection(List.copyOf(columns), new MessageType(schema.getName(), fields));
  }
}
