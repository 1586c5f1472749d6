public enum HTJSONPlaceholder {}
