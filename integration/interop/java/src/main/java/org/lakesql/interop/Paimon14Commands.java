package org.lakesql.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.paimon.append.dataevolution.DataEvolutionCompactCoordinator;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactTask;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.globalindex.GlobalIndexBuilderUtils;
import org.apache.paimon.globalindex.GlobalIndexSingletonWriter;
import org.apache.paimon.globalindex.GlobalIndexWriter;
import org.apache.paimon.globalindex.ResultEntry;
import org.apache.paimon.globalindex.btree.BTreeGlobalIndexBuilder;
import org.apache.paimon.index.GlobalIndexMeta;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.InternalRowUtils;
import org.apache.paimon.utils.Range;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The commands of EvolutionCommands that need Paimon 1.4 (left out of the
 * 1.3.1 build, see pom.xml): global indexes and data-evolution compaction.
 */
final class Paimon14Commands {
    private Paimon14Commands() {}

    /** globalIndex builds a --type (btree or bitmap) global index of --column over every row id. */
    static void globalIndex(Map<String, String> a, PrintStream out) throws Exception {
        String column = PaimonTool.need(a, "column");
        String type = PaimonTool.need(a, "type");
        try (Catalog cat = PaimonTool.catalog(a)) {
            FileStoreTable t = (FileStoreTable) cat.getTable(Identifier.fromString(PaimonTool.need(a, "table")));
            List<CommitMessage> msgs = new ArrayList<>();
            switch (type) {
                case "btree":
                    BTreeGlobalIndexBuilder b = new BTreeGlobalIndexBuilder(t).withIndexField(column);
                    // only the rows no index of the column covers yet: Paimon
                    // refuses index files of overlapping row ranges
                    List<DataSplit> splits = b.incrementalScan().map(p -> p.getRight()).orElse(Collections.emptyList());
                    try (IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"))) {
                        for (DataSplit s : splits) {
                            msgs.addAll(b.build(s, io));
                        }
                    }
                    break;
                case "bitmap":
                    msgs.add(bitmap(t, column));
                    break;
                default:
                    throw new IllegalArgumentException("unknown global index type " + type);
            }
            try (BatchTableCommit bc = t.newBatchWriteBuilder().newCommit()) {
                bc.commit(msgs);
            }
            ObjectNode o = PaimonTool.JSON.createObjectNode().put("index", type).put("column", column)
                    .put("messages", msgs.size());
            out.println(PaimonTool.JSON.writeValueAsString(o));
        }
    }

    /**
     * bitmap writes one bitmap global index file of column over the row ids
     * s … n-1 of the latest snapshot, s the first row id no bitmap index of
     * the column covers yet (as DataEvolutionTableTest builds one): the values
     * go to the writer in row-id order, which must have no gap.
     */
    private static CommitMessage bitmap(FileStoreTable t, String column) throws Exception {
        if (!t.partitionKeys().isEmpty()) {
            throw new IllegalArgumentException("bitmap global index: only unpartitioned tables");
        }
        DataField field = t.rowType().getField(column);
        RowType read = SpecialFields.rowTypeWithRowTracking(t.rowType().project(column));
        int rowIdPos = read.getFieldIndex(SpecialFields.ROW_ID.name());
        ReadBuilder rb = t.newReadBuilder().withReadType(read);
        TreeMap<Long, Object> values = new TreeMap<>();
        try (RecordReader<InternalRow> r = rb.newRead().createReader(rb.newScan().plan())) {
            r.forEachRemaining(row -> values.put(row.getLong(rowIdPos),
                    row.isNullAt(0) ? null : InternalRowUtils.copy(InternalRow.createFieldGetter(field.type(), 0).getFieldOrNull(row), field.type())));
        }
        if (values.isEmpty() || values.firstKey() != 0 || values.lastKey() != values.size() - 1) {
            throw new IllegalStateException("row ids are not 0 … n-1: " + values.keySet());
        }
        long start = 0;
        for (IndexManifestEntry e : t.store().newIndexFileHandler().scan(t.snapshotManager().latestSnapshot(), "bitmap")) {
            GlobalIndexMeta m = e.indexFile().globalIndexMeta();
            if (m != null && m.indexFieldId() == field.id()) {
                start = Math.max(start, m.rowRangeEnd() + 1);
            }
        }
        if (start >= values.size()) {
            throw new IllegalStateException("every row id has a bitmap index of " + column);
        }
        GlobalIndexWriter w = GlobalIndexBuilderUtils.createIndexWriter(t, "bitmap", field, new Options());
        for (Object v : values.tailMap(start).values()) {
            ((GlobalIndexSingletonWriter) w).write(v);
        }
        List<ResultEntry> entries = w.finish();
        Range range = new Range(start, values.size() - 1);
        List<IndexFileMeta> metas = GlobalIndexBuilderUtils.toIndexFileMetas(t.fileIO(),
                t.store().pathFactory().globalIndexFileFactory(), t.coreOptions(), range, field.id(), "bitmap", entries);
        return new CommitMessageImpl(BinaryRow.EMPTY_ROW, 0, null, DataIncrement.indexIncrement(metas),
                CompactIncrement.emptyIncrement());
    }

    /** compactDataEvolution runs one plan of Paimon's DataEvolutionCompactCoordinator. */
    static void compactDataEvolution(Map<String, String> a, PrintStream out) throws Exception {
        try (Catalog cat = PaimonTool.catalog(a)) {
            FileStoreTable t = (FileStoreTable) cat.getTable(Identifier.fromString(PaimonTool.need(a, "table")));
            List<DataEvolutionCompactTask> tasks = new DataEvolutionCompactCoordinator(t, false, false).plan();
            String user = UUID.randomUUID().toString();
            List<CommitMessage> msgs = new ArrayList<>();
            int before = 0;
            for (DataEvolutionCompactTask task : tasks) {
                msgs.add(task.doCompact(t, user));
                before += task.compactBefore().size();
            }
            if (!msgs.isEmpty()) {
                try (BatchTableCommit bc = t.newBatchWriteBuilder().newCommit()) {
                    bc.commit(msgs);
                }
            }
            ObjectNode o = PaimonTool.JSON.createObjectNode().put("tasks", tasks.size()).put("filesBefore", before);
            out.println(PaimonTool.JSON.writeValueAsString(o));
        }
    }
}
