/**
 * Staged escrow: a deal's milestones, each paid by both dealers, submitted by the dealmaker and released
 * when both dealers approve it (or by itself in time); the milestone plan the three participants agree on.
 */

// The deal page's Milestones section: the milestones, their buttons, the plan editor and proposals.
export { MilestonesSection } from './milestones-section';
