package scan

// TakesFuncLit is takesFuncLit for the external tests: which bodies the
// load keeps in packages that reach no client.
var TakesFuncLit = takesFuncLit

// MatchPatterns is matchPatterns for the external tests.
var MatchPatterns = matchPatterns
