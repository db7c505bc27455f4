"""The API's controllers, one module per concern of design §5."""
