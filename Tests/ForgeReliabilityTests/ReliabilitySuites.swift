import Testing

/// The suites of this target, run one after the other.
///
/// The crash tests start a process every few milliseconds, and a process being started holds a copy of the
/// test's open files until it runs its program: the full-disk tests, which count the free bytes left on a
/// volume, must not run meanwhile.
@Suite(.serialized)
enum ReliabilitySuites {}
