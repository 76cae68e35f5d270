package org.lakesql.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Subcommands for row-tracking and data-evolution append tables (bucket -1):
 *
 * <pre>
 * compact-append --warehouse W --table db.t     one compaction of the table's small files, as Paimon's
 *                                               compact procedure plans it for a bucket-unaware append
 *                                               table (AppendCompactCoordinator, keeping row ids); on a
 *                                               data-evolution table (Paimon 1.4 only) its
 *                                               DataEvolutionCompactCoordinator, which merges the files
 *                                               of one row-id range into one file of every column
 * global-index   --warehouse W --table db.t --column C --type btree|bitmap   (Paimon 1.4 only)
 *                                               a global index of column C over every row id
 * </pre>
 *
 * The write spec's commits take "writeColumns": ["c", …] (the rows hold only
 * those columns: BatchTableWrite.withWriteType) and "firstRowId": N (every
 * new file gets first row id N, as Paimon's own data-evolution tests assign
 * it: DataFileMeta.assignFirstRowId), see PaimonTool.writeCommit. The 1.4-only
 * commands live in Paimon14Commands, which the 1.3.1 build leaves out.
 */
final class EvolutionCommands {
    private EvolutionCommands() {}

    static boolean run(String cmd, Map<String, String> a, PrintStream out) throws Exception {
        switch (cmd) {
            case "compact-append":
                compactAppend(a, out);
                return true;
            case "global-index":
                paimon14("globalIndex", a, out);
                return true;
            default:
                return false;
        }
    }

    /** paimon14 calls Paimon14Commands.method(a, out), which only the 1.4 build has. */
    private static void paimon14(String method, Map<String, String> a, PrintStream out) throws Exception {
        Class<?> c;
        try {
            c = Class.forName("org.lakesql.interop.Paimon14Commands");
        } catch (ClassNotFoundException e) {
            throw new UnsupportedOperationException(method + " needs Paimon 1.4 (this tool is built against "
                    + org.apache.paimon.table.Table.class.getPackage().getImplementationVersion() + ")");
        }
        try {
            c.getDeclaredMethod(method, Map.class, PrintStream.class).invoke(null, a, out);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        }
    }

    /** assignFirstRowId gives every new data file of msgs the first row id firstRowId. */
    static List<CommitMessage> assignFirstRowId(List<CommitMessage> msgs, long firstRowId) {
        for (CommitMessage m : msgs) {
            CommitMessageImpl c = (CommitMessageImpl) m;
            List<DataFileMeta> files = new ArrayList<>(c.newFilesIncrement().newFiles());
            c.newFilesIncrement().newFiles().clear();
            for (DataFileMeta f : files) {
                c.newFilesIncrement().newFiles().add(f.assignFirstRowId(firstRowId));
            }
        }
        return msgs;
    }

    private static void compactAppend(Map<String, String> a, PrintStream out) throws Exception {
        try (Catalog cat = PaimonTool.catalog(a)) {
            FileStoreTable t = (FileStoreTable) cat.getTable(Identifier.fromString(PaimonTool.need(a, "table")));
            if (t.coreOptions().dataEvolutionEnabled()) {
                paimon14("compactDataEvolution", a, out);
                return;
            }
            List<AppendCompactTask> tasks = new AppendCompactCoordinator(t, false).run();
            List<CommitMessage> msgs = new ArrayList<>();
            int before = 0;
            String user = UUID.randomUUID().toString();
            BaseAppendFileStoreWrite w = (BaseAppendFileStoreWrite) t.store().newWrite(user);
            if (t.coreOptions().rowTrackingEnabled()) {
                // As Flink's AppendTableCompactor: the rewritten files keep
                // each row's _ROW_ID and _SEQUENCE_NUMBER as columns.
                w.withWriteType(SpecialFields.rowTypeWithRowTracking(t.rowType()));
            }
            try {
                for (AppendCompactTask task : tasks) {
                    msgs.add(task.doCompact(t, w));
                    before += task.compactBefore().size();
                }
            } finally {
                w.close();
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
