// The parts of ClickUp API v2's JSON that the plugin reads (field names as the API documents them).

export interface ClickUpUserJson {
  id: number;
  username?: string | null;
  email?: string | null;
  initials?: string;
  color?: string | null;
  profilePicture?: string | null;
}

/** A list status (GET /list/{id}); `type` is "open", "custom", "done" or "closed". */
export interface ClickUpStatusJson {
  id?: string;
  status: string;
  type?: string;
  orderindex?: number;
  color?: string;
}

export interface ClickUpListJson {
  id: string;
  name: string;
  statuses?: ClickUpStatusJson[];
  space?: { id: string; name?: string };
  folder?: { id: string; name?: string };
}

/** An option of a drop_down (`name`, `orderindex`) or labels (`label`) field. */
export interface ClickUpOptionJson {
  id: string;
  name?: string;
  label?: string;
  color?: string | null;
  orderindex?: number;
}

/** A custom field definition (GET /list/{id}/field), and on a task also its `value`. */
export interface ClickUpFieldJson {
  id: string;
  name: string;
  type: string;
  type_config?: {
    options?: ClickUpOptionJson[];
    /** emoji (rating): how many. */
    count?: number;
    code_point?: string;
    /** currency */
    currency_type?: string;
    precision?: number;
    /** progress */
    method?: string;
    start?: number;
    end?: number;
  };
  required?: boolean;
  hide_from_guests?: boolean;
  value?: unknown;
}

export interface ClickUpTaskJson {
  id: string;
  custom_id?: string | null;
  name: string;
  text_content?: string | null;
  description?: string | null;
  /** Only with include_markdown_description=true. */
  markdown_description?: string | null;
  status?: ClickUpStatusJson;
  date_created?: string | null;
  date_updated?: string | null;
  date_closed?: string | null;
  date_done?: string | null;
  archived?: boolean;
  creator?: ClickUpUserJson;
  assignees?: ClickUpUserJson[];
  tags?: { name: string }[];
  parent?: string | null;
  priority?: { id?: string; priority: string; color?: string; orderindex?: string } | null;
  due_date?: string | null;
  start_date?: string | null;
  points?: number | null;
  custom_fields?: ClickUpFieldJson[];
  /** task_id waits on depends_on. */
  dependencies?: { task_id: string; depends_on: string; type?: number }[];
  linked_tasks?: { task_id: string; link_id: string }[];
  subtasks?: ClickUpTaskJson[];
  url?: string;
  list?: { id: string; name?: string };
  team_id?: string;
}

export interface ClickUpCommentJson {
  id: string | number;
  comment_text?: string;
  comment?: { text?: string }[];
  user?: ClickUpUserJson;
  resolved?: boolean;
  /** unix ms as a string */
  date?: string | number;
}
