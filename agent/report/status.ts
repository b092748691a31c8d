/** The test annotation carrying the sample's status (done | partial_success | needs_review | failed). */
export const STATUS_ANNOTATION = 'bwa-status';
