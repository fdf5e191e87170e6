"""Two-tower retrieval model with in-batch negatives."""
