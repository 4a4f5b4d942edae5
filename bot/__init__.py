"""boardroom's bot: Discord glue, the Discord-free application layer (``bot.app``),
storage (``bot.storage``), reminders (``bot.reminders``) and the ``boardroom`` CLI."""
