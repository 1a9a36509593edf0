// Package events holds the domain's events.
package events

type AccountLogPushEvent struct{ LogID int64 }

type LevelChangedEvent struct{ MemberID int64 }
