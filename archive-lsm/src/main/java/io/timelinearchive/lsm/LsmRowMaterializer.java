package io.timelinearchive.lsm;

import io.timelinearchive.storage.StorageLocation;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;

/**
 * Builds one {@link LsmHistoryInstant} per Parquet record from the columns requested (see {@link
 * LsmColumns}), column by column: no Avro schema is taken from the file.
 */
final class LsmRowMaterializer extends RecordMaterializer<LsmHistoryInstant> {
  private final StorageLocation file;
  private final Row row = new Row();
  private final GroupConverter root;
  private LsmHistoryInstant current;

  LsmRowMaterializer(List<LsmColumns.Column> requested, StorageLocation file) {
    this.file = file;
    Converter[] converters = new Converter[requested.size()];
    for (int i = 0; i < converters.length; i++) {
      converters[i] = converter(requested.get(i));
    }
    this.root =
        new GroupConverter() {
          @Override
          public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
          }

          @Override
          public void start() {
            row.clear();
          }

          @Override
          public void end() {
            current = row.build(LsmRowMaterializer.this.file);
          }
        };
  }

  private PrimitiveConverter converter(LsmColumns.Column column) {
    return switch (column) {
      case INSTANT_TIME -> strings(v -> row.instantTime = v);
      case COMPLETION_TIME -> strings(v -> row.completionTime = v);
      case ACTION -> strings(v -> row.action = v);
      case METADATA -> bytes(v -> row.metadata = v);
      case PLAN -> bytes(v -> row.plan = v);
      case VERSION ->
          new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
              row.version = value;
            }
          };
    };
  }

  private static PrimitiveConverter strings(java.util.function.Consumer<String> to) {
    return new PrimitiveConverter() {
      @Override
      public void addBinary(Binary value) {
        to.accept(value.toStringUsingUTF8());
      }
    };
  }

  private static PrimitiveConverter bytes(java.util.function.Consumer<ByteBuffer> to) {
    return new PrimitiveConverter() {
      @Override
      public void addBinary(Binary value) {
        // a copy: Parquet may reuse the page buffer the value points into
        to.accept(ByteBuffer.wrap(value.getBytes()));
      }
    };
  }

  @Override
  public LsmHistoryInstant getCurrentRecord() {
    return current;
  }

  @Override
  public GroupConverter getRootConverter() {
    return root;
  }

  /** The values of the record being read; null where the column is null or not requested. */
  private static final class Row {
    String instantTime;
    String completionTime;
    String action;
    ByteBuffer metadata;
    ByteBuffer plan;
    int version;

    void clear() {
      instantTime = null;
      completionTime = null;
      action = null;
      metadata = null;
      plan = null;
      version = LsmColumns.DEFAULT_VERSION;
    }

    LsmHistoryInstant build(StorageLocation file) {
      if (instantTime == null || action == null) {
        throw new IllegalStateException(
            "a row without " + (instantTime == null ? "an instantTime" : "an action"));
      }
      if (!Hudi1Instant.isTime(instantTime)) {
        throw new IllegalStateException("a row whose instantTime '" + instantTime + "' is not one");
      }
      if (completionTime != null && !Hudi1Instant.isTime(completionTime)) {
        throw new IllegalStateException(
            "the row of " + instantTime + " has completionTime '" + completionTime + "'");
      }
      return new LsmHistoryInstant(
          instantTime,
          Optional.ofNullable(completionTime),
          action,
          Optional.ofNullable(metadata),
          Optional.ofNullable(plan),
          version,
          file);
    }
  }
}
