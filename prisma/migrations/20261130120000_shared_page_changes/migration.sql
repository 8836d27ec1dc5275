-- Signed-out visitors' pages of a model are kept until what they show changes (docs/decisions/057-shared-pages-kept-until-changed.md):
-- every change to what a model page, embed or oEmbed answer shows says so on the channel scanroom_shared_pages,
-- as 'item:<id>' (the model, its annotations, a scene's parts), 'user:<id>' (its owner's name, avatar and plan)
-- or 'all' (plans, categories), and each web process forgets the pages that show it.
CREATE FUNCTION scanroom_shared_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF TG_ARGV[0] = 'all' THEN
    PERFORM pg_notify('scanroom_shared_pages', 'all');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN changed := to_jsonb(OLD); ELSE changed := to_jsonb(NEW); END IF;
  PERFORM pg_notify('scanroom_shared_pages', TG_ARGV[0] || ':' || (changed ->> TG_ARGV[1]));
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> TG_ARGV[1]) IS DISTINCT FROM (changed ->> TG_ARGV[1]) THEN
    PERFORM pg_notify('scanroom_shared_pages', TG_ARGV[0] || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]));
  END IF;
  RETURN NULL;
END;
$$;

-- A model's row, except the view counts added every second (pages show them a few minutes late at most).
CREATE TRIGGER shared_pages_item_updated AFTER UPDATE ON "Item" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'viewCount') IS DISTINCT FROM (to_jsonb(NEW) - 'viewCount'))
  EXECUTE FUNCTION scanroom_shared_pages_changed('item', 'id');
CREATE TRIGGER shared_pages_item_deleted AFTER DELETE ON "Item" FOR EACH ROW
  EXECUTE FUNCTION scanroom_shared_pages_changed('item', 'id');
CREATE TRIGGER shared_pages_annotation AFTER INSERT OR UPDATE OR DELETE ON "Annotation" FOR EACH ROW
  EXECUTE FUNCTION scanroom_shared_pages_changed('item', 'itemId');
CREATE TRIGGER shared_pages_scene_node AFTER INSERT OR UPDATE OR DELETE ON "SceneNode" FOR EACH ROW
  EXECUTE FUNCTION scanroom_shared_pages_changed('item', 'sceneId');
CREATE TRIGGER shared_pages_user AFTER UPDATE OR DELETE ON "User" FOR EACH ROW
  EXECUTE FUNCTION scanroom_shared_pages_changed('user', 'id');
CREATE TRIGGER shared_pages_subscription AFTER INSERT OR UPDATE OR DELETE ON "Subscription" FOR EACH ROW
  EXECUTE FUNCTION scanroom_shared_pages_changed('user', 'userId');
CREATE TRIGGER shared_pages_plan AFTER INSERT OR UPDATE OR DELETE ON "Plan" FOR EACH STATEMENT
  EXECUTE FUNCTION scanroom_shared_pages_changed('all');
CREATE TRIGGER shared_pages_category AFTER INSERT OR UPDATE OR DELETE ON "Category" FOR EACH STATEMENT
  EXECUTE FUNCTION scanroom_shared_pages_changed('all');
