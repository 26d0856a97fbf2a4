// Loaded through NODE_OPTIONS (.taprc test-env), which Node runs before the
// command line's --import of tap's @tapjs/processinfo: that module records
// every file each test process loads (for coverage and `tap --changed`,
// both unused here: .taprc disables coverage) from a module hook that reads
// each file, splits it into lines and looks up its source map, about 0.35 s
// of CPU per test process. Its own exclusion pattern, set before its hook
// thread starts (the thread copies the environment then), turns that off.
// ts-cache.mjs drops this file from NODE_OPTIONS for the processes tests spawn.
process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
