package org.lakesql.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.RowType;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * file-index --warehouse W --table db.t --filter JSON: what Java Paimon's
 * own data-file index evaluation (FileIndexPredicate, as its scans and
 * reads run it) says of every data file of the latest snapshot under the
 * filter, one line a file: {"file": name, "index": "embedded" | "file" |
 * "none", "remain": true | false | null}; then {"plannedFiles": n}, the
 * files Java's filtered scan plans (embedded indexes prune there).
 */
final class FileIndexCheck {
    private FileIndexCheck() {}

    static boolean run(String cmd, Map<String, String> a, PrintStream out) throws Exception {
        if (!cmd.equals("file-index")) {
            return false;
        }
        try (Catalog c = PaimonTool.catalog(a)) {
            FileStoreTable t = (FileStoreTable) c.getTable(Identifier.fromString(PaimonTool.need(a, "table")));
            Predicate filter = PaimonTool.filter(t.rowType(), PaimonTool.JSON.readTree(PaimonTool.need(a, "filter")));
            for (Split s : t.newReadBuilder().newScan().plan().splits()) {
                DataSplit split = (DataSplit) s;
                DataFilePathFactory paths =
                        t.store().pathFactory().createDataFilePathFactory(split.partition(), split.bucket());
                for (DataFileMeta file : split.dataFiles()) {
                    out.println(PaimonTool.JSON.writeValueAsString(verdict(t, paths, file, filter)));
                }
            }
            int planned = 0;
            List<Split> splits = t.newReadBuilder().withFilter(filter).newScan().plan().splits();
            for (Split s : splits) {
                planned += ((DataSplit) s).dataFiles().size();
            }
            out.println(PaimonTool.JSON.writeValueAsString(PaimonTool.JSON.createObjectNode().put("plannedFiles", planned)));
        }
        return true;
    }

    private static ObjectNode verdict(FileStoreTable t, DataFilePathFactory paths, DataFileMeta file, Predicate filter)
            throws Exception {
        ObjectNode o = PaimonTool.JSON.createObjectNode().put("file", file.fileName());
        RowType written = new SchemaManager(t.fileIO(), t.location()).schema(file.schemaId()).logicalRowType();
        FileIndexPredicate index = null;
        if (file.embeddedIndex() != null) {
            index = new FileIndexPredicate(file.embeddedIndex(), written);
            o.put("index", "embedded");
        } else {
            for (String extra : file.extraFiles()) {
                if (extra.endsWith(DataFilePathFactory.INDEX_PATH_SUFFIX)) {
                    index = new FileIndexPredicate(paths.toAlignedPath(extra, file), t.fileIO(), written);
                    o.put("index", "file");
                }
            }
        }
        if (index == null) {
            return o.put("index", "none").putNull("remain");
        }
        try (FileIndexPredicate p = index) {
            return o.put("remain", p.evaluate(filter).remain());
        }
    }
}
