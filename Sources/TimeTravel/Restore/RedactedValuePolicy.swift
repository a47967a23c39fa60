/// What a restore does with a value that the trace holds only as `"<redacted>"` (a key of the
/// recorder's `redactedKeys`, or a `Secret`): that value was never written, so it cannot come
/// back from the trace.
public enum RedactedValuePolicy: Sendable, Equatable {
    /// Keep the store's live value at each such path, and restore the rest; the report lists
    /// the paths kept (`RestoreReport.keptValues`). A restore whose live state has no value at
    /// such a path (it is in another enum case) fails instead, and restores nothing.
    case keepLive
    /// Restore nothing when any store's recorded state has a redacted value: the restore fails
    /// with `RestoreError.Kind.redacted`, naming the paths.
    case refuse
}
