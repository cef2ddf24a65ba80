// A SwiftUI sample: type-checked and compiled where SwiftUI exists (Apple platforms); elsewhere, as on Linux,
// only parsed, since SwiftUI is not there to compile it against.
#if canImport(SwiftUI)
// sample
#endif
