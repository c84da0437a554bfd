package io.timelinearchive.lsm;

import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/** The rows of one history file, decoded from its bytes. */
final class LsmParquetFile {
  private LsmParquetFile() {}

  /**
   * Decodes every row of a history file.
   *
   * @param bytes the whole file
   * @param location where it was read from, for messages and for each row's {@code file}
   * @param details whether to decode the {@code metadata} and {@code plan} columns
   * @throws CorruptHistoryFileException naming the file if it is not a Parquet file of {@code
   *     HoodieLSMTimelineInstant} rows
   */
  static List<LsmHistoryInstant> read(byte[] bytes, StorageLocation location, boolean details)
      throws CorruptHistoryFileException {
    String name = location.toString();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new ByteArrayInputFile(bytes, name), ParquetReadOptions.builder().build())) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      LsmColumns.Projection projection = LsmColumns.projection(schema, details);
      reader.setRequestedSchema(projection.schema());
      MessageColumnIO columns = new ColumnIOFactory().getColumnIO(projection.schema(), schema);
      LsmRowMaterializer materializer = new LsmRowMaterializer(projection.columns(), location);
      List<LsmHistoryInstant> rows = new ArrayList<>();
      PageReadStore pages;
      while ((pages = reader.readNextRowGroup()) != null) {
        RecordReader<LsmHistoryInstant> records = columns.getRecordReader(pages, materializer);
        for (long i = 0; i < pages.getRowCount(); i++) {
          rows.add(records.read());
        }
      }
      return rows;
    } catch (IOException | RuntimeException e) {
      throw new CorruptHistoryFileException(
          location,
          "not a Parquet file of Hudi 1.x timeline instants ("
              + bytes.length
              + " bytes): "
              + e.getMessage(),
          e);
    }
  }
}
